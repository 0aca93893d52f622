import type { Pool } from 'pg';
import type { BetState } from '@wagers/domain/bets/bet';
import type { Invitee } from '@wagers/domain/invites/invitee';
import { rateLimits, type LimitHit } from '@wagers/platform/limits/rate-limits';
import type { Runtime } from '@wagers/platform/runtime';

/** What a keyed request made: its invite's code, or its bet's id (derived from the key). */
export interface IdempotentInvite {
  kind: 'invite' | 'bet';
  id: string;
}

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
 * The limits on what reaches other people's inboxes and phones, counted once a command has passed
 * every rule of its aggregate and before it is appended: a refused invitation writes nothing,
 * sends nothing and costs nothing.
 */
export function inviteLimits(deps: { pool: Pool; runtime: Runtime }) {
  const limits = rateLimits(deps.pool, deps.runtime.now);
  return {
    /**
     * A new invitation, alone or with a bet. `once` names what the caller's idempotency key made
     * (the invite's code, the bet's id): a retry of the same request counts once, and a key that
     * makes something new (an invite key reused after it expired draws a new code) counts again.
     */
    beforeInvite: (senderId: string, invitee: Invitee, once?: IdempotentInvite | null) =>
      once
        ? limits.consumeOnce(
            `${once.kind}\n${senderId}\n${once.id}`,
            ...inviteHits(senderId, invitee),
          )
        : limits.consume(...inviteHits(senderId, invitee)),
    /**
     * A bet's invitation sent again, once the bet has let it be: counts like a new one to the same
     * person (by phone when it has one, as the resend goes).
     */
    async beforeResend(senderId: string, to: BetState['invitee']) {
      const invitee: Invitee | null = to?.phone
        ? { email: null, phone: to.phone }
        : to?.email
          ? { email: to.email, phone: null }
          : null;
      if (invitee) await limits.consume(...inviteHits(senderId, invitee));
    },
  };
}
