import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { LogWakeup } from '../event-store/wakeup.ts';
import { SESSIONS_CHANNEL, sessionChange, SessionCache } from './session-cache.ts';

describe('the session cache', () => {
  let database: TestDatabase;
  let admin: pg.Client;
  let pool: pg.Pool;

  /** Backends of the test database other than the test's own. */
  const backends = async () => {
    const { rows } = await admin.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return rows.map((row) => row.pid);
  };

  /** A session row as the table would answer it. */
  const row = (userId: string) => () =>
    Promise.resolve({
      userId,
      position: null,
      reaction: null,
      settled: null,
      expiresAt: Date.now() + 60_000,
    });

  beforeAll(async () => {
    database = await createTestDatabase('wagers_session_cache');
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
    await pool.query('SELECT 1');
  }, 120_000);

  afterAll(async () => {
    await pool.end();
    await admin.end();
    await database.drop();
  }, 120_000);

  it('listens on the connection the log wake-ups of the process listen on', async () => {
    const before = await backends();
    const wakeup = new LogWakeup(database.url, 'session_cache_log');
    wakeup.onWake(() => undefined);
    await wakeup.ready();
    const cache = new SessionCache(pool, database.url);
    await cache.start();
    expect((await backends()).filter((pid) => !before.includes(pid))).toHaveLength(1);

    await cache.load('t-shared', row('u-shared'));
    expect(await cache.find('t-shared')).not.toBeNull();
    // A change announced by another process is heard before the next lookup answers.
    await admin.query('SELECT pg_notify($1, $2)', [
      SESSIONS_CHANNEL,
      sessionChange({ tokenHash: 't-shared' }, 'another-process'),
    ]);
    expect(await cache.find('t-shared')).toBeNull();

    await Promise.all([cache.close(), wakeup.close()]);
    await expect
      .poll(async () => (await backends()).filter((pid) => !before.includes(pid)))
      .toEqual([]);
  });

  it('forgets every session the moment its connection drops, and keeps them again once it listens', async () => {
    const before = await backends();
    const cache = new SessionCache(pool, database.url);
    await cache.start();
    const [listening] = (await backends()).filter((pid) => !before.includes(pid));
    await cache.load('t-drop', row('u-drop'));
    expect(cache.get('t-drop')).not.toBeNull();

    // A sign-out announced while the connection is down would go unheard: nothing is kept.
    await admin.query('SELECT pg_terminate_backend($1)', [listening]);
    await expect.poll(() => cache.get('t-drop')).toBeNull();
    expect(await cache.find('t-drop')).toBeNull();

    await expect
      .poll(
        async () => {
          await cache.load('t-drop', row('u-drop'));
          return cache.get('t-drop')?.userId ?? null;
        },
        { timeout: 10_000 },
      )
      .toBe('u-drop');
    await cache.close();
  });
});
