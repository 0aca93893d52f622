import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparePositions } from '@wagers/contracts/position';
import { createPool } from '../db.ts';
import { sampleEvent } from '../event-store/sample-events.ts';
import { createPostgresEventStore } from '../event-store/postgres.ts';
import type { EventStore } from '../event-store/port.ts';
import { createLogger } from '../logger.ts';
import { migrate, platformMigrations } from '../migrations.ts';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { readCheckpoints, resetProjector } from './checkpoints.ts';
import type { Projector } from './projector.ts';
import { runProjector } from './runner.ts';
import { ProjectionWatcher } from './watcher.ts';

const logger = createLogger('silent');

describe('projection runner', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: EventStore;

  beforeAll(async () => {
    db = await createTestDatabase();
    await migrate(db.url, [platformMigrations]);
    pool = createPool(db.url);
    store = createPostgresEventStore(pool, { connectionString: db.url });
    await pool.query('CREATE TABLE counts (stream text PRIMARY KEY, n int NOT NULL)');
  });
  afterAll(async () => {
    await store.close();
    await pool.end();
    await db.drop();
  });

  /** Counts events per stream; fails on demand to show a failed batch leaves no trace. */
  function countingProjector(
    name: string,
    options: { failOn?: string; version?: number } = {},
  ): Projector {
    return {
      name,
      version: options.version ?? 1,
      tables: ['counts'],
      async apply(client, event) {
        if (event.type === options.failOn) throw new Error('projector bug');
        await client.query(
          `INSERT INTO counts (stream, n) VALUES ($1, 1) ON CONFLICT (stream) DO UPDATE SET n = counts.n + 1`,
          [event.streamId],
        );
      },
    };
  }

  function start(projector: Projector, options: { standbyRetryMs?: number } = {}) {
    return runProjector(projector, { store, pool, connectionString: db.url, logger, ...options });
  }

  async function append(stream: string, type = 'Counted', n = 1) {
    return store.appendToStream(
      stream,
      Array.from({ length: n }, () => sampleEvent(type, {})),
      { expectedRevision: 'any' },
    );
  }

  async function countOf(stream: string): Promise<number> {
    const result = await pool.query<{ n: number }>('SELECT n FROM counts WHERE stream = $1', [
      stream,
    ]);
    return result.rows[0]?.n ?? 0;
  }

  it('applies every event once and lets a reader wait for a position, woken without polling', async () => {
    const watcher = new ProjectionWatcher(pool, db.url);
    await watcher.start();
    const runner = start(countingProjector('counter'));
    await runner.active;
    const written = await append('s-a', 'Counted', 3);
    await expect(watcher.waitFor(['counter'], written.position, 2000)).resolves.toBe(true);
    expect(await countOf('s-a')).toBe(3);
    const [checkpoint] = await readCheckpoints(pool);
    expect(comparePositions(checkpoint!.position!, written.position)).toBe(0);

    // A position nobody has written yet is not reached: the wait gives up after its timeout.
    await expect(
      watcher.waitFor(['counter'], `${BigInt(written.position.split('-')[0]!) + 1000n}-0`, 100),
    ).resolves.toBe(false);
    await runner.stop();
    await watcher.close();
  });

  it('runs one active copy: a second waits and takes over when the first stops', async () => {
    const first = start(countingProjector('single'), { standbyRetryMs: 50 });
    await first.active;
    const second = start(countingProjector('single'), { standbyRetryMs: 50 });
    let secondActive = false;
    void second.active.then(() => (secondActive = true));
    await append('s-b', 'Counted', 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(secondActive).toBe(false);
    await first.stop();
    await second.active;
    const written = await append('s-b', 'Counted', 1);
    const watcher = new ProjectionWatcher(pool, db.url);
    await watcher.start();
    await expect(watcher.waitFor(['single'], written.position, 2000)).resolves.toBe(true);
    await watcher.close();
    await second.stop();
  });

  it('keeps a failed batch out entirely: no rows, no checkpoint', async () => {
    await pool.query('TRUNCATE counts');
    await pool.query(`DELETE FROM projection_checkpoints WHERE name = 'fragile'`);
    await append('s-c', 'Boom', 1);
    const runner = start(countingProjector('fragile', { failOn: 'Boom' }));
    await runner.active;
    await new Promise((resolve) => setTimeout(resolve, 300));
    await runner.stop();
    const row = (await readCheckpoints(pool)).find((c) => c.name === 'fragile');
    expect(row?.position).toBeNull();
    const rows = await pool.query('SELECT * FROM counts');
    expect(rows.rowCount).toBe(0);
  });

  it('rebuilds from the start when reset, and on a new version', async () => {
    await pool.query('TRUNCATE counts');
    const runner = start(countingProjector('rebuilt'));
    await runner.active;
    const written = await append('s-d', 'Counted', 2);
    const watcher = new ProjectionWatcher(pool, db.url);
    await watcher.start();
    await watcher.waitFor(['rebuilt'], written.position, 2000);
    const before = await countOf('s-d');
    const client = await pool.connect();
    await client.query('BEGIN');
    await resetProjector(client, countingProjector('rebuilt'));
    await client.query('COMMIT');
    client.release();
    // Reset empties the tables; the running copy notices and replays everything into them.
    const again = await append('s-e', 'Counted', 1);
    await expect(watcher.waitFor(['rebuilt'], again.position, 2000)).resolves.toBe(true);
    expect(await countOf('s-d')).toBe(before);
    await runner.stop();

    await pool.query('TRUNCATE counts');
    const v2 = start(countingProjector('rebuilt', { version: 2 }));
    await v2.active;
    const latest = await append('s-e', 'Counted', 1);
    await expect(watcher.waitFor(['rebuilt'], latest.position, 2000)).resolves.toBe(true);
    expect(await countOf('s-d')).toBe(before);
    expect(await countOf('s-e')).toBe(2);
    expect((await readCheckpoints(pool)).find((c) => c.name === 'rebuilt')?.version).toBe(2);
    await v2.stop();
    await watcher.close();
  });
});
