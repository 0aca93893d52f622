import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionStore } from '@wagers/platform/auth/sessions';
import { loadConfig } from '@wagers/platform/config';
import { sampleEvent } from '@wagers/platform/event-store/sample-events';
import { startTestServer, type TestServer } from '@wagers/platform/http/test-server';
import { createLogger } from '@wagers/platform/logger';
import { readLiveBuild } from '@wagers/platform/projections/checkpoints';
import type { Projector } from '@wagers/platform/projections/projector';
import { runProjector } from '@wagers/platform/projections/runner';
import {
  closeWatchedLog,
  openWatchedLog,
  type WatchedLog,
} from '@wagers/platform/projections/watched-log';
import { readYourWrites } from './consistency.ts';

const logger = createLogger('silent');

describe('a read of a read model new to this deploy, while its first build loads', () => {
  let log: WatchedLog;
  let sessions: SessionStore;
  let server: TestServer;
  let base: string;

  beforeAll(async () => {
    log = await openWatchedLog();
    sessions = new SessionStore(log.pool, { ttlDays: 1, secure: false });
    const deps = { watcher: log.watcher, sessions, config: loadConfig({}) };
    server = await startTestServer((app) => {
      app.get('/api/fresh', readYourWrites(deps, ['fresh']), (_req, res, next) => {
        log.pool
          .query<{ n: number }>('SELECT count(*)::int AS n FROM fresh_rows')
          .then((result) => res.json(result.rows[0]), next);
      });
    });
    base = server.base;
  });
  afterAll(async () => {
    await server?.close();
    await sessions?.close();
    if (log) await closeWatchedLog(log);
  });

  it('answers 503 with when to try again, then the read model once the build takes over', async () => {
    await log.store.appendToStream(
      's-1',
      [sampleEvent('Counted', {}), sampleEvent('Counted', {})],
      { expectedRevision: 'any' },
    );
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const fresh: Projector = {
      name: 'fresh',
      version: 1,
      tables: ['fresh_rows'],
      schema: { tables: 'CREATE TABLE fresh_rows (id uuid PRIMARY KEY)', indexes: '' },
      async apply(client, event) {
        await held;
        await client.query('INSERT INTO fresh_rows (id) VALUES ($1)', [event.id]);
      },
    };
    const runner = runProjector(fresh, {
      store: log.store,
      pool: log.pool,
      connectionString: log.db.url,
      logger,
    });
    try {
      await runner.active;
      const early = await fetch(`${base}/api/fresh`);
      expect(early.status).toBe(503);
      expect(early.headers.get('retry-after')).toBe('5');
      expect(await early.json()).toMatchObject({
        detail: 'This part of Wagers is still being prepared. Please try again in a moment.',
      });

      release();
      for (let i = 0; i < 400 && !(await readLiveBuild(log.pool, 'fresh')); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const ready = await fetch(`${base}/api/fresh`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ n: 2 });
    } finally {
      await runner.stop();
    }
  });
});
