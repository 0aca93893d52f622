import type { Pool } from 'pg';
import { idempotencyKeys } from '../idempotency-keys.ts';
import { newInviteCode } from './send-invite.ts';

/**
 * The invite code an inviter's Idempotency-Key stands for. The code is the invite's only secret,
 * so it cannot be derived from the key: the first request draws one and keeps it for a day, and
 * every retry (also one racing the first) gets the same code. The invite's append then decides, as
 * for any code, and a retry finds the invite the first request made.
 */
export function inviteKeys(pool: Pool, now: () => Date) {
  const keys = idempotencyKeys(pool, now);
  return {
    codeFor: (inviterId: string, key: string): Promise<string> =>
      keys.valueFor('invite', inviterId, key, newInviteCode()),
  };
}
