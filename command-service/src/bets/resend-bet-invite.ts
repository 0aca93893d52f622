import type { GlobalPosition } from '@wagers/contracts/position';
import { betAggregate } from '@wagers/domain/bets/decide';
import { isOptedOut } from '@wagers/domain/invites/sms-opt-out';
import { handle, loadRead } from '@wagers/platform/aggregate';
import type { CommandContext } from '@wagers/platform/decider';
import type { EventStore } from '@wagers/platform/event-store/port';
import type { BetState } from '@wagers/domain/bets/bet';
import { conflict } from '@wagers/platform/errors';
import type { IdempotencyKeys } from '../idempotency-keys.ts';

/** The caller's Idempotency-Key, and where the number of the resend it stands for is kept. */
export interface ResendKey {
  key: string;
  keys: IdempotencyKeys;
}

/**
 * Which of the bet's resends `key` stands for: the next one for the first request, the same for
 * every retry. A key kept for another bet's resend is refused.
 */
async function resendNumber(
  { key, keys }: ResendKey,
  actorId: string,
  betId: string,
  next: number,
): Promise<number> {
  const kept = await keys.valueFor('bet-resend', actorId, key, `${betId} ${next}`);
  const [keptBetId, number] = kept.split(' ');
  if (keptBetId !== betId)
    throw conflict(
      'This Idempotency-Key was already used to resend another invitation. Use a new key for a new request.',
    );
  return Number(number);
}

/**
 * Resend Invite: one append on the bet; a process manager resends the invite itself. With an
 * Idempotency-Key, a retry appends nothing and so sends nothing again.
 */
export async function resendBetInvite(
  store: EventStore,
  betId: string,
  actorId: string,
  context: CommandContext,
  keyed: ResendKey | null,
  /**
   * Counted once the resend has passed every rule, before it is appended (an invite's limits),
   * with the invitee it goes to again.
   */
  beforeAppend?: (invitee: BetState['invitee']) => Promise<void>,
): Promise<GlobalPosition | null> {
  const { state: bet, read } = await loadRead(store, betAggregate, betId);
  const phoneOptedOut = await isOptedOut(store, bet.invitee?.phone ?? null);
  const sequence = keyed
    ? await resendNumber(keyed, actorId, betId, bet.inviteResends + 1)
    : undefined;
  const result = await handle(
    store,
    betAggregate,
    betId,
    {
      type: 'ResendInvite',
      data: { actorId, phoneOptedOut, ...(sequence !== undefined ? { sequence } : {}) },
    },
    context,
    { beforeAppend: beforeAppend && (() => beforeAppend(bet.invitee)), read },
  );
  return result.position;
}
