import type { GlobalPosition } from '@wagers/contracts/position';
import { betAggregate } from '@wagers/domain/bets/decide';
import { isOptedOut } from '@wagers/domain/invites/sms-opt-out';
import { handle, loadRead } from '@wagers/platform/aggregate';
import type { CommandContext } from '@wagers/platform/decider';
import type { EventStore } from '@wagers/platform/event-store/port';
import type { BetState } from '@wagers/domain/bets/bet';

/** Resend Invite: one append on the bet; a process manager resends the invite itself. */
export async function resendBetInvite(
  store: EventStore,
  betId: string,
  actorId: string,
  context: CommandContext,
  /**
   * Counted once the resend has passed every rule, before it is appended (an invite's limits),
   * with the invitee it goes to again.
   */
  beforeAppend?: (invitee: BetState['invitee']) => Promise<void>,
): Promise<GlobalPosition | null> {
  const { state: bet, read } = await loadRead(store, betAggregate, betId);
  const phoneOptedOut = await isOptedOut(store, bet.invitee?.phone ?? null);
  const result = await handle(
    store,
    betAggregate,
    betId,
    { type: 'ResendInvite', data: { actorId, phoneOptedOut } },
    context,
    { beforeAppend: beforeAppend && (() => beforeAppend(bet.invitee)), read },
  );
  return result.position;
}
