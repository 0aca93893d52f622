import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { startSlowProxy, type SlowProxy } from '@wagers/test-support/slow-proxy';
import { createPool } from './db.ts';

describe('a pool whose server goes away', () => {
  let db: TestDatabase;
  let proxy: SlowProxy;

  beforeAll(async () => {
    db = await createTestDatabase();
    proxy = await startSlowProxy(db.url);
  });
  afterAll(async () => {
    await proxy?.stop();
    await db?.drop();
  });

  it('survives a checked-out client losing its connection: its queries fail, and the pool serves again once the server is back', async () => {
    const pool = createPool(proxy.url, 2);
    try {
      const client = await pool.connect();
      await client.query('SELECT 1');
      // Between two statements of a transaction, say, the server restarts.
      proxy.outage(true);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await expect(client.query('SELECT 1')).rejects.toThrow();
      client.release();
      await expect(pool.query('SELECT 1')).rejects.toThrow();

      proxy.outage(false);
      await expect(pool.query<{ n: number }>('SELECT 1 AS n')).resolves.toMatchObject({
        rows: [{ n: 1 }],
      });
    } finally {
      await pool.end();
    }
  });
});
