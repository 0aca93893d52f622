import type { ClientBase, Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparePositions } from '@wagers/contracts/position';
import { inTransaction } from '../db.ts';
import { sampleEvent } from '../event-store/sample-events.ts';
import type { EventStore } from '../event-store/port.ts';
import { createLogger } from '../logger.ts';
import { asAnotherProcess, type TestDatabase } from '@wagers/test-support/database';
import { createBuild, ensureFollowerBuild, rewindFollower } from './builds.ts';
import {
  checkpointNotice,
  readBuilds,
  readLiveBuild,
  saveCheckpointStatement,
} from './checkpoints.ts';
import { PROJECTIONS_CHANNEL, type BulkLoader, type Projector } from './projector.ts';
import { LogWakeup } from '../event-store/wakeup.ts';
import { READ_MODEL_CONNECTION, runProjector } from './runner.ts';
import type { ProjectionWatcher } from './watcher.ts';
import { closeWatchedLog, openWatchedLog } from './watched-log.ts';

const logger = createLogger((process.env.TEST_LOG_LEVEL as 'silent') ?? 'silent');

describe('projection runner', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: EventStore;
  let watcher: ProjectionWatcher;

  beforeAll(async () => {
    ({ db, pool, store, watcher } = await openWatchedLog());
  });
  afterAll(() => closeWatchedLog({ db, pool, store, watcher }));

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

  /** A follower without tables that acts on every event outside the database, as a dispatcher does. */
  function writingNothing(name: string, seen: string[]): Projector {
    return {
      name,
      version: 1,
      tables: [],
      apply: (_client, event) => {
        seen.push(event.position);
        return Promise.resolve();
      },
    };
  }

  function start(
    projector: Projector,
    options: { standbyRetryMs?: number; batchSize?: number } = {},
  ) {
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

  /** Waits (up to 20 s) until reads go to a build of `version`. */
  async function liveVersionBecomes(name: string, version: number): Promise<void> {
    for (let i = 0; i < 400; i++) {
      if ((await readLiveBuild(pool, name))?.version === version) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
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

  it('passes over live pages of types a projector does not name: its checkpoint still reaches them, and an operator moving it is seen', async () => {
    const counting = countingProjector('picky');
    const picky: Projector = {
      ...counting,
      eventTypes: new Set(['Counted']),
      apply: (client, event) =>
        event.type === 'Counted' ? counting.apply!(client, event) : Promise.resolve(),
    };
    const runner = start(picky);
    await runner.active;
    // A build applies every page until it has caught up and serves reads.
    while (!(await readLiveBuild(pool, 'picky'))) await new Promise((r) => setTimeout(r, 20));
    const applied = (await readLiveBuild(pool, 'picky'))!.events;
    const others = await append('s-p', 'Unnamed', 4);
    // Readers waiting on the projector are not kept waiting for events it has nothing to do with.
    await expect(watcher.waitFor(['picky'], others.position, 15_000)).resolves.toBe(true);
    expect(await countOf(picky, 's-p')).toBe(0);
    expect(await readLiveBuild(pool, 'picky')).toMatchObject({ events: applied });

    const counted = await append('s-p', 'Counted', 2);
    await append('s-p', 'Unnamed', 1);
    await expect(watcher.waitFor(['picky'], counted.position, 15_000)).resolves.toBe(true);
    expect(await countOf(picky, 's-p')).toBe(2);

    // Sent back to the start while it passes over pages: it follows from there.
    await pool.query(
      `UPDATE projection_checkpoints SET position = NULL, position_major = 0, position_minor = 0
        WHERE name = 'picky'`,
    );
    const last = await append('s-p', 'Unnamed', 1);
    await expect(watcher.waitFor(['picky'], last.position, 15_000)).resolves.toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Its two events counted again from the start (the rows were left as they were), not lost.
    expect(await countOf(picky, 's-p')).toBe(4);
    await runner.stop();
  });

  it('writes a live page that leaves its writes for the commit in one round trip, and never commits one an operator moved', async () => {
    // Counts how often each event was applied, in statements sent only with the page's commit.
    const table = 'late_applied';
    const late: Projector = {
      name: 'late',
      version: 1,
      tables: [table],
      schema: {
        tables: `CREATE TABLE ${table} (event_id uuid PRIMARY KEY, n int NOT NULL)`,
        indexes: `CREATE INDEX ${table}_n ON ${table} (n)`,
      },
      applyPage(client, events, { atCommit }) {
        const values = events.map((event) => `('${event.id}', 1)`).join(', ');
        const sql = `INSERT INTO ${table} (event_id, n) VALUES ${values}
          ON CONFLICT (event_id) DO UPDATE SET n = ${table}.n + 1`;
        return atCommit
          ? (atCommit(sql), Promise.resolve())
          : client.query(sql).then(() => undefined);
      },
    };
    const applied = async (position: string) => {
      const result = await pool.query<{ n: number }>(
        `SELECT t.n FROM ${table} t JOIN es_events e ON e.event_id = t.event_id
          WHERE e.global_position = split_part($1, '-', 2)::bigint`,
        [position],
      );
      return result.rows[0]?.n ?? 0;
    };
    const runner = start(late);
    await runner.active;
    await expect.poll(() => readLiveBuild(pool, 'late'), { timeout: 15_000 }).toBeTruthy();

    const first = await append('s-l', 'Counted', 3);
    await expect(watcher.waitFor(['late'], first.position, 15_000)).resolves.toBe(true);
    expect(await applied(first.position)).toBe(1);
    expect(await readLiveBuild(pool, 'late')).toMatchObject({ position: first.position });

    // An operator sends it back to before `first` while the follower is still where it was: its
    // next page's move is refused, nothing that page wrote commits, and it follows from there.
    await pool.query(
      `UPDATE projection_checkpoints SET position = NULL, position_major = 0, position_minor = 0
        WHERE name = 'late'`,
    );
    const second = await append('s-l', 'Counted', 1);
    await expect
      .poll(async () => (await readLiveBuild(pool, 'late'))?.position, { timeout: 15_000 })
      .toBe(second.position);
    // `first` applied again from the start; `second` once only: the refused page left nothing.
    expect(await applied(first.position)).toBe(2);
    expect(await applied(second.position)).toBe(1);
    await runner.stop();
  });

  it("moves the checkpoint of a follower that writes nothing (a dispatcher) with the other followers' moves, and sees an operator move it", async () => {
    const seen: string[] = [];
    const dispatcher = writingNothing('quiet', seen);
    await inTransaction(pool, (client) => ensureFollowerBuild(client, dispatcher));
    const before = seen.length;
    const runner = start(dispatcher);
    await runner.active;
    const written = await append('s-q', 'Sent', 3);
    await expect(watcher.waitFor(['quiet'], written.position, 15_000)).resolves.toBe(true);
    const build = (await readLiveBuild(pool, 'quiet'))!;
    expect(build.position).toBe(written.position);
    expect(seen.length - before).toBe(build.events);
    expect(new Set(seen).size).toBe(seen.length);

    // Sent back to the start by an operator: its next build follows from there.
    await inTransaction(pool, (client) => rewindFollower(client, 'quiet'));
    const again = await append('s-q', 'Sent', 1);
    await expect
      .poll(async () => (await readLiveBuild(pool, 'quiet'))?.position, { timeout: 15_000 })
      .toBe(again.position);
    // Everything from the start again, the events before the move included.
    expect(seen.filter((at) => at === written.position).length).toBeGreaterThanOrEqual(2);
    expect(seen).toContain(again.position);
    await runner.stop();
  });

  it('counts every event a projector acted on, those of pages it wrote nothing for included', async () => {
    const table = 'sometimes_counts';
    const sometimes: Projector = {
      name: 'sometimes',
      version: 1,
      tables: [table],
      schema: { tables: `CREATE TABLE ${table} (stream text PRIMARY KEY)`, indexes: '' },
      eventTypes: new Set(['Quiet', 'Loud']),
      async apply(client, event) {
        if (event.type === 'Loud')
          await client.query(`INSERT INTO ${table} VALUES ($1) ON CONFLICT DO NOTHING`, [
            event.streamId,
          ]);
      },
    };
    // Live pages of two events.
    const runner = start(sometimes, { batchSize: 2 });
    await runner.active;
    await expect.poll(() => readLiveBuild(pool, 'sometimes'), { timeout: 15_000 }).toBeTruthy();
    const base = (await readLiveBuild(pool, 'sometimes'))!.events;
    // Pages of two that write nothing, then at once one that writes: the moves of the first are
    // taken back, and counted by the page that writes.
    const loud = await store.appendToStream(
      's-quiet',
      ['Quiet', 'Quiet', 'Quiet', 'Quiet', 'Loud'].map((type) => sampleEvent(type, {})),
      { expectedRevision: 'any' },
    );
    await expect(watcher.waitFor(['sometimes'], loud.position, 15_000)).resolves.toBe(true);
    expect(await readLiveBuild(pool, 'sometimes')).toMatchObject({ events: base + 5 });
    // Then pages that write nothing, their moves stored with the other followers'.
    const quiet = await append('s-quiet', 'Quiet', 2);
    await expect(watcher.waitFor(['sometimes'], quiet.position, 15_000)).resolves.toBe(true);
    expect(await readLiveBuild(pool, 'sometimes')).toMatchObject({
      position: quiet.position,
      events: base + 7,
    });
    expect((await pool.query(`SELECT * FROM ${table}`)).rows).toEqual([{ stream: 's-quiet' }]);
    await runner.stop();
  });

  it('stores, when stopped, the moves of pages it acted on without writing, rather than act on them again', async () => {
    const seen: string[] = [];
    const quiet = writingNothing('settled', seen);
    await inTransaction(pool, (client) => ensureFollowerBuild(client, quiet));
    const runner = start(quiet);
    await runner.active;
    const written = await append('s-settle', 'Sent', 2);
    // Stopped as soon as it has acted, before its move would have been stored with the others'.
    await expect.poll(() => seen.at(-1), { timeout: 15_000, interval: 1 }).toBe(written.position);
    await runner.stop();
    expect((await readLiveBuild(pool, 'settled'))?.position).toBe(written.position);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('lets readers wait on what checkpoint commits announce, and sees a follower sent back without taking late word of its old build', async () => {
    const follower = { name: 'announced', version: 1, tables: [] };
    await inTransaction(pool, (client) => ensureFollowerBuild(client, follower));
    // Another process commits pages and announces them over the database.
    const elsewhere = new LogWakeup(asAnotherProcess(db.url), PROJECTIONS_CHANNEL);
    const notice = (build: number, position: string) =>
      checkpointNotice({ name: follower.name, build, status: 'live', position });
    const commit = async (build: number, position: string) => {
      await inTransaction(pool, (client) =>
        client.query(saveCheckpointStatement(follower.name, build, position, 1)),
      );
      elsewhere.announce(notice(build, position));
    };
    try {
      const waiting = watcher.waitFor([follower.name], '900-5', 15_000);
      await commit(1, '900-5');
      await expect(waiting).resolves.toBe(true);

      await inTransaction(pool, (client) => rewindFollower(client, follower.name));
      expect(await readLiveBuild(pool, follower.name)).toMatchObject({ build: 2, position: null });
      // Back at the start, once the notice reaches this process (it leaves after the commit): a
      // reader of 900-5 waits again.
      await expect
        .poll(() => watcher.waitFor([follower.name], '900-5', 50), { timeout: 15_000 })
        .toBe(false);
      await commit(2, '900-2');
      await expect(watcher.waitFor([follower.name], '900-2', 15_000)).resolves.toBe(true);

      // Word of a move of the old build, come only now (a notice leaves after its commit, and
      // its process may be slow to send it), then of the new build's next move: the first is
      // not taken for the new build's.
      await pool.query('SELECT pg_notify($1, $2), pg_notify($1, $3)', [
        PROJECTIONS_CHANNEL,
        notice(1, '900-6'),
        notice(2, '900-3'),
      ]);
      await expect
        .poll(() => watcher.knownState([follower.name]), { timeout: 15_000 })
        .toMatch(/ announced 2 900-3$/);
      await expect(watcher.waitFor([follower.name], '900-5', 50)).resolves.toBe(false);
    } finally {
      await elsewhere.close();
    }
  });

  it('reads the positions again while readers wait, should a notice be lost', async () => {
    const follower = { name: 'unannounced', version: 1, tables: [] };
    await inTransaction(pool, (client) => ensureFollowerBuild(client, follower));
    const waiting = watcher.waitFor([follower.name], '901-1', 15_000);
    await inTransaction(pool, (client) =>
      client.query(saveCheckpointStatement(follower.name, 1, '901-1', 1)),
    );
    await expect(waiting).resolves.toBe(true);
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

  it('takes a lost connection for a failure of the database, not of an event: it follows on over a new one and records no error', async () => {
    const projector = countingProjector('reconnecting');
    const runner = start(projector);
    await runner.active;
    const first = await append('s-r');
    await watcher.waitFor(['reconnecting'], first.position, 15_000);
    // The follower's own connection goes, as in a restart of the server or a failover: the one
    // connection to this test's database that holds a projector's lock (the specs that run
    // beside it have databases of their own).
    const ended = await pool.query<{ ended: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = $1
          AND pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory')`,
      [READ_MODEL_CONNECTION],
    );
    expect(ended.rows).toEqual([{ ended: true }]);
    const second = await append('s-r');
    await expect(watcher.waitFor(['reconnecting'], second.position, 15_000)).resolves.toBe(true);
    expect(await countOf(projector, 's-r')).toBe(2);
    const builds = await readBuilds(pool, 'reconnecting');
    expect(builds.map((b) => [b.build, b.status, b.error, b.errorEventId])).toEqual([
      [1, 'live', null, null],
    ]);
    await runner.stop();
  });

  it('waits longer after each failure in a row (a dispatcher with Redis away), says how long in the log and status, and follows on once it can', async () => {
    const logged: { msg?: string; projector?: string; retryInMs?: number }[] = [];
    const capturing = createLogger(
      'error',
      {},
      { write: (line: string) => void logged.push(JSON.parse(line) as (typeof logged)[number]) },
    );
    let away = true;
    const seen: string[] = [];
    const projector: Projector = {
      name: 'retrying',
      version: 1,
      tables: [],
      apply: (_client, event) => {
        if (away) return Promise.reject(new Error('Redis is away'));
        seen.push(event.position);
        return Promise.resolve();
      },
    };
    const runner = runProjector(projector, {
      store,
      pool,
      connectionString: db.url,
      logger: capturing,
      pageSize: 2,
      maxRetryMs: 2000,
    });
    await runner.active;
    const written = await append('s-retrying');
    const waits = () =>
      logged
        .filter((line) => line.msg === 'projector failed; restarting')
        .filter((line) => line.projector === 'retrying')
        .map((line) => line.retryInMs);
    await expect.poll(() => waits().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(4);
    expect(waits().slice(0, 4)).toEqual([500, 1000, 2000, 2000]);
    // Status shows where it waits and why (the first event of the log it has not acted on).
    const [stuck] = await readBuilds(pool, 'retrying');
    expect(stuck?.error).toBe('Redis is away');
    expect(stuck?.errorPosition).not.toBeNull();

    away = false;
    await expect(watcher.waitFor(['retrying'], written.position, 15_000)).resolves.toBe(true);
    expect(seen.at(-1)).toBe(written.position);
    const [caughtUp] = await readBuilds(pool, 'retrying');
    expect(caughtUp?.error).toBeNull();
    await runner.stop();
  });

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
    await liveVersionBecomes('rebuilt', 2);
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

  it('keeps the live build of the version before current, with the code kept for it, until the new build takes over reads', async () => {
    const v1 = countingProjector('kept');
    const first = start(v1);
    await first.active;
    const early = await append('s-f', 'Counted', 2);
    await watcher.waitFor(['kept'], early.position, 15_000);
    await first.stop();

    // The whole deploy restarts on version 2, which keeps version 1's code; its build is held back.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const v2Counting = countingProjector('kept', { version: 2 });
    const v2: Projector = {
      ...v2Counting,
      previous: v1,
      async apply(client, event) {
        await held;
        await v2Counting.apply?.(client, event);
      },
    };
    const second = start(v2);
    const during = await append('s-g', 'Counted', 1);
    await expect(watcher.waitFor(['kept'], during.position, 15_000)).resolves.toBe(true);
    expect(await countOf(v1, 's-g')).toBe(1);
    expect((await readBuilds(pool, 'kept')).map((b) => [b.build, b.version, b.status])).toEqual([
      [1, 1, 'live'],
      [2, 2, 'building'],
    ]);

    release();
    await liveVersionBecomes('kept', 2);
    const after = await append('s-g', 'Counted', 1);
    await expect(watcher.waitFor(['kept'], after.position, 15_000)).resolves.toBe(true);
    expect(await countOf(v1, 's-f')).toBe(2);
    expect(await countOf(v1, 's-g')).toBe(2);
    expect((await readBuilds(pool, 'kept')).map((b) => [b.build, b.version, b.status])).toEqual([
      [1, 1, 'retired'],
      [2, 2, 'live'],
    ]);
    // The retired build's follower has stopped: this copy fills the new build alone.
    for (let i = 0; i < 100 && second.holding.has(1); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect([...second.holding]).toEqual([2]);
    await second.stop();
  });

  it('retires a build of the version before left under way that the new code has no code for, and builds the new version in its place', async () => {
    const v1 = countingProjector('stranded');
    const first = start(v1);
    await first.active;
    const early = await append('s-h', 'Counted', 2);
    await watcher.waitFor(['stranded'], early.position, 15_000);
    await first.stop();
    // A rebuild left under way: interrupted, or caught up and left for an operator to switch.
    await inTransaction(pool, (client) => createBuild(client, v1, { autoSwitch: false }));

    // The deploy restarts on version 2, which keeps no code for version 1.
    const second = start(countingProjector('stranded', { version: 2 }));
    try {
      await liveVersionBecomes('stranded', 2);
      const later = await append('s-h', 'Counted', 1);
      await expect(watcher.waitFor(['stranded'], later.position, 15_000)).resolves.toBe(true);
      expect(await countOf(v1, 's-h')).toBe(3);
      // Build 2 retired, and (having applied no event) was dropped at once.
      const builds = (await readBuilds(pool, 'stranded')).map((b) => [
        b.build,
        b.version,
        b.status,
      ]);
      expect(builds.filter(([build]) => build !== 2)).toEqual([
        [1, 1, 'retired'],
        [3, 2, 'live'],
      ]);
      expect(builds.filter(([, , status]) => status === 'building')).toEqual([]);
    } finally {
      await second.stop();
    }
  });

  it('never holds up reads behind a switch waiting for a reader left open: it gives way, and switches once the reader is gone', async () => {
    const v1 = countingProjector('readheld');
    const first = start(v1);
    await first.active;
    const early = await append('s-i', 'Counted', 2);
    await watcher.waitFor(['readheld'], early.position, 15_000);
    await first.stop();

    // A transaction that read the live view and stays open (an operator's psql session).
    const reader = await pool.connect();
    await reader.query('BEGIN');
    await reader.query('SELECT count(*) FROM readheld_counts');
    const second = start(countingProjector('readheld', { version: 2 }));
    try {
      // The new build catches up and asks for the views.
      for (let i = 0; i < 400; i++) {
        const [live, next] = await readBuilds(pool, 'readheld');
        if (next?.indexed && next.position === live?.position) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Every read meanwhile answers within the switch's short wait for its lock.
      for (let i = 0; i < 8; i++) {
        const began = Date.now();
        const read = pool.query<{ n: number }>(
          `SELECT n FROM readheld_counts WHERE stream = 's-i'`,
        );
        const answer = await Promise.race([
          read.then((result) => result.rows[0]?.n),
          new Promise((resolve) => setTimeout(() => resolve('held up'), 5000)),
        ]);
        expect(answer).toBe(2);
        expect(Date.now() - began).toBeLessThan(2500);
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      expect((await readLiveBuild(pool, 'readheld'))?.version).toBe(1);
    } finally {
      await reader.query('COMMIT');
      reader.release();
    }
    try {
      await liveVersionBecomes('readheld', 2);
      expect((await readLiveBuild(pool, 'readheld'))?.version).toBe(2);
    } finally {
      await second.stop();
    }
  }, 60_000);
});

describe('projection runner on a log that has never held an event', () => {
  let log: Awaited<ReturnType<typeof openWatchedLog>>;
  beforeAll(async () => {
    log = await openWatchedLog();
  });
  afterAll(() => closeWatchedLog(log));

  it('drops a replaced build that never applied an event at once, not after the grace period', async () => {
    const projector = (version: number): Projector => ({
      name: 'untouched',
      version,
      tables: ['untouched_rows'],
      schema: {
        tables: 'CREATE TABLE untouched_rows (id text PRIMARY KEY, at int)',
        indexes: 'CREATE INDEX untouched_rows_at ON untouched_rows (at)',
      },
      async apply() {},
    });
    const deps = { store: log.store, pool: log.pool, connectionString: log.db.url, logger };
    const v1 = runProjector(projector(1), deps);
    await v1.active;
    for (let i = 0; i < 200 && !(await readLiveBuild(log.pool, 'untouched')); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await v1.stop();
    const [first] = await readBuilds(log.pool, 'untouched');
    expect(first).toMatchObject({ build: 1, status: 'live', position: null });

    // A fresh install's first start: the migrations' build 1 is replaced by the code's version.
    const v2 = runProjector(projector(2), deps);
    try {
      let builds = await readBuilds(log.pool, 'untouched');
      for (let i = 0; i < 200 && (builds.length !== 1 || builds[0]?.build !== 2); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        builds = await readBuilds(log.pool, 'untouched');
      }
      expect(builds.map((b) => [b.build, b.version, b.status])).toEqual([[2, 2, 'live']]);
      const schemas = await log.pool.query<{ name: string }>(
        `SELECT nspname AS name FROM pg_namespace WHERE nspname = $1`,
        [first!.schemaName],
      );
      expect(schemas.rows).toEqual([]);
      // Reads go to the live build.
      await expect(
        log.pool.query('SELECT count(*)::int AS n FROM untouched_rows'),
      ).resolves.toMatchObject({
        rows: [{ n: 0 }],
      });
    } finally {
      await v2.stop();
    }
  });
});
