import type { Pool } from 'pg';
import { hourlySweep } from '@wagers/platform/db';

const KEPT_MS = 24 * 3600_000;

/** What a kind of request keeps for its keys: an invite's code, a resend's number. */
export type KeyScope = 'invite' | 'bet-resend';

/**
 * What a caller's Idempotency-Key stands for, where it cannot be derived from the key: the first
 * request keeps its `fresh` value for a day, and every retry (also one racing the first) gets the
 * value the first kept. The append then decides, as for any request, and a retry finds what the
 * first did.
 */
export function idempotencyKeys(pool: Pool, now: () => Date) {
  const sweep = hourlySweep((at) =>
    pool.query('DELETE FROM idempotency_keys WHERE created_at < $1', [
      new Date(at.getTime() - KEPT_MS),
    ]),
  );
  return {
    async valueFor(scope: KeyScope, ownerId: string, key: string, fresh: string): Promise<string> {
      const at = now();
      // On a conflict the row is locked until the first request commits; a key older than a day
      // stands for a new request.
      const result = await pool.query<{ value: string }>(
        `INSERT INTO idempotency_keys AS k (scope, owner_id, key, value, created_at)
           VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (scope, owner_id, key) DO UPDATE SET
             value = CASE WHEN k.created_at < $6 THEN EXCLUDED.value ELSE k.value END,
             created_at = CASE WHEN k.created_at < $6 THEN EXCLUDED.created_at ELSE k.created_at END
           RETURNING value`,
        [scope, ownerId, key, fresh, at, new Date(at.getTime() - KEPT_MS)],
      );
      sweep(at);
      return result.rows[0]!.value;
    },
  };
}

export type IdempotencyKeys = ReturnType<typeof idempotencyKeys>;
