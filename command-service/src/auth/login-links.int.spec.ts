import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from 'pg';
import { createPool } from '@wagers/platform/db';
import { migrate, platformMigrations } from '@wagers/platform/migrations';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { LINK_TTL_MS, LoginLinks } from './login-links.ts';

const T0 = new Date('2026-11-27T08:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

describe('sign-in links once expired', () => {
  let db: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    db = await createTestDatabase('wagers_login_links');
    await migrate(db.url, [platformMigrations]);
    pool = createPool(db.url, 2);
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  const linksTo = async (email: string) =>
    Number(
      (
        await pool.query<{ n: string }>('SELECT count(*) AS n FROM login_tokens WHERE email = $1', [
          email,
        ])
      ).rows[0]!.n,
    );

  it('are deleted, with their address, an hour after they expire', async () => {
    expect(LINK_TTL_MS).toBe(15 * 60_000);
    const links = new LoginLinks(pool);
    const first = await links.issue('first@example.com', null, at(0));
    expect('token' in first).toBe(true);
    expect(await linksTo('first@example.com')).toBe(1);

    // 75 minutes past its expiry, the next link anyone asks for takes the first one away.
    // (The sweep rides on the request without holding it up: it may land just after.)
    await links.issue('second@example.com', null, at(90));
    await expect.poll(() => linksTo('first@example.com')).toBe(0);
    expect(await linksTo('second@example.com')).toBe(1);

    // The second expired at 105 minutes; at 110, in another process, it is kept a while yet.
    const another = new LoginLinks(pool);
    await another.issue('third@example.com', null, at(110));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await linksTo('second@example.com')).toBe(1);
    // Used or not, an expired link does not sign in.
    if (!('token' in first)) throw new Error('no token');
    expect(await links.redeem(first.token, at(110), null)).toBeNull();
  });
});
