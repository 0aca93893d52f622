import type { ClientBase, Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparePositions } from '@wagers/contracts/position';
import { createPool, inTransaction } from '../db.ts';
import { sampleEvent } from '../event-store/sample-events.ts';
import { createPostgresEventStore } from '../event-store/postgres.ts';
import type { EventStore } from '../event-store/port.ts';
import { createLogger } from '../logger.ts';
import { migrate, platformMigrations } from '../migrations.ts';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { createBuild } from './builds.ts';
import { readBuilds, readLiveBuild } from './checkpoints.ts';
import type { BulkLoader, Projector } from './projector.ts';
import { runProjector } from './runner.ts';
import { ProjectionWatcher } from './watcher.ts';

const logger = createLogger((process.env.TEST_LOG_LEVEL as 'silent') ?? 'silent');

describe('projection runner', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: EventStore;
  let watcher: ProjectionWatcher;

  beforeAll(async () => {
    db = await createTestDatabase();
    await migrate(db.url, [platformMigrations]);
    pool = createPool(db.url);
    store = createPostgresEventStore(pool, { connectionString: db.url });
    watcher = new ProjectionWatcher(pool, db.url);
    await watcher.start();
  });
  afterAll(async () => {
    await watcher.close();
    await store.close();
    await pool.end();
    await db.drop();
  });

  /**
   * Counts events per stream in a table of its own; fails on demand. `folded`: a bulk load folds
   * each page's counts in memory, ahead of the write of the page before.
   */
  function countingProjector(
    name: string,
    options: { failOn?: string; version?: number; folded?: boolean } = {},
  ): Projector {
    const table = `${name}_counts`;
    const add = `INSERT INTO ${table} (stream, n) SELECT * FROM unnest($1::text[], $2::int[])
      ON CONFLICT (stream) DO UPDATE SET n = ${table}.n + excluded.n`;
    const bulkLoader = (): BulkLoader => ({
      fold(events) {
        const counts = new Map<string, number>();
        for (const event of events) {
          if (event.type === options.failOn) throw new Error('projector bug');
          counts.set(event.streamId, (counts.get(event.streamId) ?? 0) + 1);
        }
        return Promise.resolve(async (client: ClientBase) => {
          await client.query(add, [[...counts.keys()], [...counts.values()]]);
        });
      },
    });
    return {
      ...(options.folded && { bulkLoader }),
      name,
      version: options.version ?? 1,
      tables: [table],
      schema: {
        tables: `CREATE TABLE ${table} (stream text PRIMARY KEY, n int NOT NULL)`,
        indexes: `CREATE INDEX ${table}_n ON ${table} (n)`,
      },
      async apply(client, event) {
        if (event.type === options.failOn) throw new Error('projector bug');
        await client.query(
          `INSERT INTO ${table} (stream, n) VALUES ($1, 1) ON CONFLICT (stream) DO UPDATE SET n = ${table}.n + 1`,
          [event.streamId],
        );
      },
    };
  }

  function start(projector: Projector, options: { standbyRetryMs?: number } = {}) {
    return runProjector(projector, {
      store,
      pool,
      connectionString: db.url,
      logger,
      pageSize: 2,
      ...options,
    });
  }

  async function append(stream: string, type = 'Counted', n = 1) {
    return store.appendToStream(
      stream,
      Array.from({ length: n }, () => sampleEvent(type, {})),
      { expectedRevision: 'any' },
    );
  }

  async function countOf(projector: Projector, stream: string): Promise<number> {
    const result = await pool.query<{ n: number }>(
      `SELECT n FROM ${projector.tables[0]} WHERE stream = $1`,
      [stream],
    );
    return result.rows[0]?.n ?? 0;
  }

  it('builds a new projector, makes it live, applies every event once and lets a reader wait for a position', async () => {
    const counter = countingProjector('counter');
    await append('s-a', 'Counted', 5);
    const runner = start(counter);
    await runner.active;
    const written = await append('s-a', 'Counted', 3);
    await expect(watcher.waitFor(['counter'], written.position, 15_000)).resolves.toBe(true);
    expect(await countOf(counter, 's-a')).toBe(8);
    const live = await readLiveBuild(pool, 'counter');
    expect(live).toMatchObject({ build: 1, status: 'live', indexed: true, events: 8 });
    expect(comparePositions(live!.position!, written.position)).toBe(0);

    // A position nobody has written yet is not reached: the wait gives up after its timeout.
    await expect(
      watcher.waitFor(['counter'], `${BigInt(written.position.split('-')[0]!) + 1000n}-0`, 100),
    ).resolves.toBe(false);
    await runner.stop();
  });

  it('runs one active copy of a build: a second waits and takes over when the first stops', async () => {
    const single = countingProjector('single');
    const first = start(single, { standbyRetryMs: 50 });
    await first.active;
    const second = start(single, { standbyRetryMs: 50 });
    let secondActive = false;
    void second.active.then(() => (secondActive = true));
    await append('s-b', 'Counted', 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(secondActive).toBe(false);
    await first.stop();
    await second.active;
    const written = await append('s-b', 'Counted', 1);
    await expect(watcher.waitFor(['single'], written.position, 15_000)).resolves.toBe(true);
    expect(await countOf(single, 's-b')).toBe(3);
    await second.stop();
  });

  it.each([
    ['pages applied one by one', false],
    ['pages folded ahead of their writes', true],
  ])(
    'stops a projector at an event it cannot apply, keeping the pages before it, and says where (%s)',
    async (_how, folded) => {
      const name = folded ? 'fragile_folded' : 'fragile';
      const stream = folded ? 's-c-folded' : 's-c';
      // Each its own poison type: the second also reads the first one's log.
      const poison = folded ? 'BoomFolded' : 'Boom';
      const fragile = countingProjector(name, { failOn: poison, folded });
      await append(stream, 'Counted', 5);
      const boom = await append(stream, poison, 1);
      await append(stream, 'Counted', 1);
      const runner = start(fragile);
      await runner.active;
      let row = (await readBuilds(pool, name))[0];
      for (let i = 0; i < 400 && !row?.error; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        row = (await readBuilds(pool, name))[0];
      }
      expect(row).toMatchObject({ error: 'projector bug' });
      expect(row!.errorPosition).toBe(boom.position);
      // Everything before the poison event is in, nothing after it.
      const counts = await pool.query<{ n: number }>(
        `SELECT n FROM proj_${name}_b1.${name}_counts WHERE stream = $1`,
        [stream],
      );
      expect(counts.rows[0]?.n).toBe(5);
      await runner.stop();
    },
  );

  it('builds a raised version next to the live one and switches reads to it once caught up', async () => {
    const v1 = countingProjector('rebuilt');
    const runner = start(v1);
    await runner.active;
    const written = await append('s-d', 'Counted', 2);
    await watcher.waitFor(['rebuilt'], written.position, 15_000);
    const before = await countOf(v1, 's-d');
    await runner.stop();

    const v2 = start(countingProjector('rebuilt', { version: 2 }));
    const latest = await append('s-e', 'Counted', 1);
    for (let i = 0; i < 400; i++) {
      if ((await readLiveBuild(pool, 'rebuilt'))?.version === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await expect(watcher.waitFor(['rebuilt'], latest.position, 15_000)).resolves.toBe(true);
    expect(await countOf(v1, 's-d')).toBe(before);
    expect(await countOf(v1, 's-e')).toBe(1);
    const builds = await readBuilds(pool, 'rebuilt');
    expect(builds.map((b) => [b.build, b.version, b.status])).toEqual([
      [1, 1, 'retired'],
      [2, 2, 'live'],
    ]);
    // A second build while one is under way is refused.
    await inTransaction(pool, (client) =>
      createBuild(client, countingProjector('rebuilt', { version: 2 })),
    );
    await expect(
      inTransaction(pool, (client) =>
        createBuild(client, countingProjector('rebuilt', { version: 2 })),
      ),
    ).rejects.toThrow('rebuilt is already being rebuilt (build 3)');
    await v2.stop();
  });
});
