import type { GlobalPosition } from '@wagers/contracts/position';
import { betAggregate } from '@wagers/domain/bets/decide';
import { smsOptOutAggregate } from '@wagers/domain/invites/sms-opt-out';
import { handle, load } from '@wagers/platform/aggregate';
import type { CommandContext } from '@wagers/platform/decider';
import type { EventStore } from '@wagers/platform/event-store/port';

/** Resend Invite: one append on the bet; a process manager resends the invite itself. */
export async function resendBetInvite(
  store: EventStore,
  betId: string,
  actorId: string,
  context: CommandContext,
): Promise<GlobalPosition | null> {
  const bet = await load(store, betAggregate, betId);
  const phone = bet.invitee?.phone ?? null;
  const phoneOptedOut = phone ? (await load(store, smsOptOutAggregate, phone)).optedOut : false;
  const result = await handle(
    store,
    betAggregate,
    betId,
    { type: 'ResendInvite', data: { actorId, phoneOptedOut } },
    context,
  );
  return result.position;
}
