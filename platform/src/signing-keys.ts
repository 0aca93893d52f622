import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import type { Pool } from 'pg';

/**
 * The key named `name` in `signing_keys`, made on first use (one statement, so processes racing
 * to make it all get the one that was kept) and cached by the function returned. A key is never
 * replaced: links it signed keep working.
 */
export function signingKey(pool: Pool, name: string): () => Promise<KeyObject> {
  let cached: Promise<KeyObject> | null = null;
  const read = async () => {
    const { rows } = await pool.query<{ key: Buffer }>(
      `INSERT INTO signing_keys (name, key) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name
       RETURNING key`,
      [name, randomBytes(32)],
    );
    return createSecretKey(rows[0]!.key);
  };
  return () => {
    cached ??= read().catch((error: unknown) => {
      cached = null;
      throw error;
    });
    return cached;
  };
}
