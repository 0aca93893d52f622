import type { Pool } from 'pg';
import { newInviteCode } from './send-invite.ts';

const KEPT_MS = 24 * 3600_000;
const SWEEP_EVERY_MS = 3600_000;

/**
 * The invite code an inviter's Idempotency-Key stands for. The code is the invite's only secret,
 * so it cannot be derived from the key: the first request draws one and keeps it for a day, and
 * every retry (also one racing the first) gets the same code. The invite's append then decides, as
 * for any code, and a retry finds the invite the first request made.
 */
export function inviteKeys(pool: Pool, now: () => Date) {
  let lastSweep = 0;
  const sweep = (at: number) => {
    if (at - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = at;
    pool
      .query('DELETE FROM idempotency_keys WHERE created_at < $1', [new Date(at - KEPT_MS)])
      .catch(() => undefined);
  };
  return {
    async codeFor(inviterId: string, key: string): Promise<string> {
      const at = now();
      // On a conflict the row is locked until the first request commits; a key older than a day
      // stands for a new invite.
      const result = await pool.query<{ value: string }>(
        `INSERT INTO idempotency_keys AS k (scope, owner_id, key, value, created_at)
           VALUES ('invite', $1, $2, $3, $4)
           ON CONFLICT (scope, owner_id, key) DO UPDATE SET
             value = CASE WHEN k.created_at < $5 THEN EXCLUDED.value ELSE k.value END,
             created_at = CASE WHEN k.created_at < $5 THEN EXCLUDED.created_at ELSE k.created_at END
           RETURNING value`,
        [inviterId, key, newInviteCode(), at, new Date(at.getTime() - KEPT_MS)],
      );
      sweep(at.getTime());
      return result.rows[0]!.value;
    },
  };
}
