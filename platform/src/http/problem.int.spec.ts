import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { startSlowProxy, type SlowProxy } from '@wagers/test-support/slow-proxy';
import { createPool } from '../db.ts';
import { startTestServer, type TestServer } from './test-server.ts';

describe('problem details when the database is out of reach', () => {
  let db: TestDatabase;
  let proxy: SlowProxy;
  let pool: Pool;
  let server: TestServer;
  let base: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    proxy = await startSlowProxy(db.url);
    pool = createPool(proxy.url, 2);
    server = await startTestServer((app) => {
      app.get('/count', (_req, res, next) => {
        pool.query<{ n: number }>('SELECT 1 AS n').then((result) => res.json(result.rows), next);
      });
      app.get('/broken', (_req, res, next) => {
        pool.query('SELECT * FROM no_such_table').then(() => res.json([]), next);
      });
    });
    base = server.base;
  });
  afterAll(async () => {
    await server?.close();
    await pool?.end();
    await proxy?.stop();
    await db?.drop();
  });

  it('answers 503 with when to try again while the database is away, and serves again once it is back', async () => {
    expect((await fetch(`${base}/count`)).status).toBe(200);

    proxy.outage(true);
    const away = await fetch(`${base}/count`);
    expect(away.status).toBe(503);
    expect(away.headers.get('content-type')).toContain('application/problem+json');
    expect(away.headers.get('retry-after')).toBe('5');
    expect(await away.json()).toMatchObject({
      status: 503,
      title: 'Service unavailable',
      detail: 'The service is briefly unavailable. Please try again in a moment.',
    });

    proxy.outage(false);
    const back = await fetch(`${base}/count`);
    expect(back.status).toBe(200);
    expect(await back.json()).toEqual([{ n: 1 }]);
  });

  it('still answers 500, with nothing of the error shown, for a failure of our own', async () => {
    const broken = await fetch(`${base}/broken`);
    expect(broken.status).toBe(500);
    expect(broken.headers.get('retry-after')).toBeNull();
    expect(await broken.json()).toMatchObject({
      status: 500,
      detail: 'Something went wrong on our side. Please try again.',
    });
  });
});
