import type { Pool } from 'pg';
import { betAggregate } from '@wagers/domain/bets/decide';
import type { Invitee } from '@wagers/domain/invites/invitee';
import { load } from '@wagers/platform/aggregate';
import type { EventStore } from '@wagers/platform/event-store/port';
import { rateLimits, type LimitHit } from '@wagers/platform/limits/rate-limits';
import type { Runtime } from '@wagers/platform/runtime';

/** What one invitation counts against: its sender, its recipient and, for SMS, the sender's texts. */
function inviteHits(senderId: string, invitee: Invitee): LimitHit[] {
  return invitee.email === null
    ? [
        { rule: 'invites-per-sender', key: senderId },
        { rule: 'invites-per-phone', key: invitee.phone },
        { rule: 'sms-per-sender', key: senderId },
      ]
    : [
        { rule: 'invites-per-sender', key: senderId },
        { rule: 'invites-per-email', key: invitee.email },
      ];
}

/**
 * The limits on what reaches other people's inboxes and phones, checked by the routes before a
 * command runs: a refused invitation writes nothing and sends nothing.
 */
export function inviteLimits(deps: { pool: Pool; store: EventStore; runtime: Runtime }) {
  const limits = rateLimits(deps.pool, deps.runtime.now);
  return {
    /**
     * A new invitation, alone or with a bet. With the caller's idempotency key, a retry of the
     * same request counts once.
     */
    beforeInvite: (senderId: string, invitee: Invitee, idempotencyKey?: string | null) =>
      idempotencyKey
        ? limits.consumeOnce(`${senderId}\n${idempotencyKey}`, ...inviteHits(senderId, invitee))
        : limits.consume(...inviteHits(senderId, invitee)),
    /** A bet's invitation sent again: counts like a new one to the same person. */
    async beforeResend(senderId: string, betId: string) {
      const bet = await load(deps.store, betAggregate, betId);
      // Anything else is refused by the command itself, and costs nothing.
      if (bet.creatorId !== senderId || !bet.invitee) return;
      const { email, phone } = bet.invitee;
      const invitee: Invitee | null = phone
        ? { email: null, phone }
        : email
          ? { email, phone: null }
          : null;
      if (invitee) await limits.consume(...inviteHits(senderId, invitee));
    },
  };
}
