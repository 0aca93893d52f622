import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAnotherProcess, type TestDatabase } from '@wagers/test-support/database';
import { inTransaction } from '../db.ts';
import type { EventStore } from '../event-store/port.ts';
import { sampleEvent } from '../event-store/sample-events.ts';
import { LogWakeup } from '../event-store/wakeup.ts';
import { createLogger } from '../logger.ts';
import { ensureFollowerBuild } from './builds.ts';
import { checkpointNotice, readLiveBuild, saveCheckpointStatement } from './checkpoints.ts';
import { PROJECTIONS_CHANNEL, type Projector } from './projector.ts';
import { liveStateSql, ReadCache } from './read-cache.ts';
import { runProjector } from './runner.ts';
import type { ProjectionWatcher } from './watcher.ts';
import { closeWatchedLog, openWatchedLog } from './watched-log.ts';

const logger = createLogger((process.env.TEST_LOG_LEVEL as 'silent') ?? 'silent');
const limits = <T>(sizeOf: (value: T) => number) => ({ maxAgeMs: 1000, maxSize: 1000, sizeOf });

describe('answers kept while their read models stay put', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: EventStore;
  let watcher: ProjectionWatcher;

  beforeAll(async () => {
    ({ db, pool, store, watcher } = await openWatchedLog());
  });
  afterAll(() => closeWatchedLog({ db, pool, store, watcher }));

  /**
   * Keeps the total of `n` over the events of the stream named as it is, in a one-row table;
   * version 2 counts each event twice.
   */
  function totalling(name: string, version = 1): Projector {
    const table = `${name}_total`;
    return {
      name,
      version,
      tables: [table],
      schema: {
        tables: `CREATE TABLE ${table} (id int PRIMARY KEY, n int NOT NULL)`,
        indexes: '',
      },
      async apply(client, event) {
        if (event.streamId !== name) return;
        const n = (event.data as { n: number }).n * version;
        await client.query(
          `INSERT INTO ${table} (id, n) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET n = ${table}.n + $1`,
          [n],
        );
      },
    };
  }

  /** A read of the total through the cache, counting the reads that reached the database. */
  function totalReader(name: string) {
    const cache = new ReadCache<number>(
      watcher,
      [name],
      limits(() => 1),
    );
    let reads = 0;
    const read = () =>
      cache.get('total', async () => {
        reads += 1;
        const result = await pool.query<{ n: number; state: string | null }>(
          `SELECT n, ${liveStateSql([name])} AS state FROM ${name}_total`,
        );
        const row = result.rows[0];
        return row ? { value: row.n, state: row.state } : null;
      });
    return { read, reads: () => reads };
  }

  const runner = (projector: Projector) =>
    runProjector(projector, { store, pool, connectionString: db.url, logger });

  /** Adds `n` to the stream `name`, and waits until this process knows `name` has applied it. */
  async function append(name: string, n: number) {
    const written = await store.appendToStream(name, [sampleEvent('Added', { n })], {
      expectedRevision: 'any',
    });
    await heard(name, written.position);
  }

  /** Waits until this process knows `name` at `position`, with no reset of it left to read. */
  async function heard(name: string, position: string) {
    await expect
      .poll(() => watcher.knownState([name]), { timeout: 15_000 })
      .toMatch(new RegExp(`^\\d+ ${name} \\d+ ${position}$`));
  }

  it('answers again without reading while nothing moved, and reads once a page moved it', async () => {
    const running = runner(totalling('summed'));
    await running.active;
    const total = totalReader('summed');
    try {
      await append('summed', 2);
      expect(await total.read()).toBe(2);
      expect(await total.read()).toBe(2);
      expect(await total.read()).toBe(2);
      expect(total.reads()).toBe(1);

      await append('summed', 3);
      expect(await total.read()).toBe(5);
      expect(await total.read()).toBe(5);
      expect(total.reads()).toBe(2);
    } finally {
      await running.stop();
    }
  });

  it('reads again after a switch to a new build, though its checkpoint is where the old one was', async () => {
    const v1 = runner(totalling('swapped'));
    await v1.active;
    const total = totalReader('swapped');
    await append('swapped', 4);
    expect(await total.read()).toBe(4);
    await v1.stop();

    // Version 2 counts twice and catches up to the same position with no new event, then
    // takes over reads: the kept answer of version 1 must not outlive the switch. Version 1's
    // answer is read again meanwhile, so it is always fresh (kept a second at most).
    const resets = watcher.resetCount;
    const v2 = runner(totalling('swapped', 2));
    try {
      // Two resets heard: the new build made, then the switch to it.
      for (let i = 0; watcher.resetCount < resets + 2 || !watcher.knownState(['swapped']); i++) {
        if (i > 1500) throw new Error('the switch was not heard');
        expect([4, 8]).toContain(await total.read());
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(await readLiveBuild(pool, 'swapped')).toMatchObject({ version: 2 });
      expect(await total.read()).toBe(8);
    } finally {
      await v2.stop();
    }
  });

  it('answers as of the state this process has heard, and serves an answer read past it only once it hears', async () => {
    const follower = { name: 'unheard', version: 1, tables: [] };
    await inTransaction(pool, (client) => ensureFollowerBuild(client, follower));
    const cache = new ReadCache<string>(
      watcher,
      [follower.name],
      limits((text) => text.length),
    );
    let reads = 0;
    const read = (key: string) =>
      cache.get(key, async () => {
        reads += 1;
        const result = await pool.query<{ state: string | null }>(
          `SELECT ${liveStateSql([follower.name])} AS state`,
        );
        const state = result.rows[0]?.state ?? null;
        return { value: `read ${reads} of ${key} at ${state}`, state };
      });
    const elsewhere = new LogWakeup(asAnotherProcess(db.url), PROJECTIONS_CHANNEL);
    const commit = (position: string) =>
      inTransaction(pool, (client) =>
        client.query(saveCheckpointStatement(follower.name, 1, position, 1)),
      );
    const announce = (position: string) =>
      elsewhere.announce(
        checkpointNotice({ name: follower.name, build: 1, status: 'live', position }),
      );
    try {
      await commit('950-1');
      announce('950-1');
      await heard(follower.name, '950-1');
      expect(await read('a')).toBe('read 1 of a at unheard 1 950-1');
      expect(await read('a')).toBe('read 1 of a at unheard 1 950-1');

      // Committed, its notice not here yet: the kept answer stands for the state this process
      // knows, as a read just before the commit would; a new read sees the commit, and is not
      // answered again while this process cannot tell that it is current.
      await commit('950-2');
      expect(await read('a')).toBe('read 1 of a at unheard 1 950-1');
      expect(await read('b')).toBe('read 2 of b at unheard 1 950-2');
      expect(await read('b')).toBe('read 3 of b at unheard 1 950-2');

      announce('950-2');
      await heard(follower.name, '950-2');
      expect(await read('a')).toBe('read 4 of a at unheard 1 950-2');
      expect(await read('b')).toBe('read 3 of b at unheard 1 950-2');
      expect(reads).toBe(4);

      // Kept a second at most, even while nothing is heard to move.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await read('b')).toBe('read 5 of b at unheard 1 950-2');
    } finally {
      await elsewhere.close();
    }
  });
});
