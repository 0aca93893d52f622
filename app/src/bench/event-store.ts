import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createPool, inTransaction } from '@wagers/platform/db';
import { createPostgresEventStore } from '@wagers/platform/event-store/postgres';
import type { EventStore, EventToAppend } from '@wagers/platform/event-store/port';
import { sampleEvent } from '@wagers/platform/event-store/sample-events';
import { createLogger } from '@wagers/platform/logger';
import { migrate, platformMigrations } from '@wagers/platform/migrations';
import { ensureFollowerBuild } from '@wagers/platform/projections/builds';
import { saveCheckpoint } from '@wagers/platform/projections/checkpoints';
import type { Projector } from '@wagers/platform/projections/projector';
import { runProjector } from '@wagers/platform/projections/runner';
import { processManagers } from '@wagers/command-service/process-managers/start';
import { DISPATCHER_NAME, INVITE_DISPATCH_TYPES } from '@wagers/notifier/dispatcher';
import { NOTIFICATIONS_DISPATCHER_NAME } from '@wagers/notifier/notifications/dispatcher';
import { NOTIFIABLE_TYPES } from '@wagers/notifier/notifications/recipients';
import {
  DEADLINE_EVENT_TYPES,
  DEADLINES_SCHEDULER_NAME,
} from '@wagers/notifier/reminders/scheduler';
import { allProjectors } from '@wagers/projection-service/projectors';
import { createTestDatabase, testServerUrl } from '@wagers/test-support/database';
import { serverPolicy } from './cpu.ts';
import { printTable, type Cell } from './table.ts';

/** How long each measurement runs; BENCH_SECONDS=10 for steadier figures. */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const MAX_WRITERS = 32;
const PAGE = 500;

type Pool = ReturnType<typeof createPool>;
/** One step of a writer or reader loop; returns how many events it wrote or read. */
type Step = (worker: number, iteration: number) => Promise<number>;

interface Measurement {
  scenario: string;
  workers: number;
  store: Step;
  baseline: string;
  plain: Step;
  /** Runs before the measurement, outside the clock. */
  prepare?: () => Promise<void>;
  /** Runs through both measurements (baseline and store); returns how to stop it. */
  alongside?: () => Promise<() => Promise<void>>;
}

const PLAIN_TABLE = `CREATE TABLE bench_plain (
  global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  stream_id text NOT NULL,
  stream_revision bigint NOT NULL,
  event_id uuid NOT NULL,
  type text NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT clock_timestamp()
)`;

const PLAIN_COLUMNS = 'stream_id, stream_revision, event_id, type, data, metadata';

function benchEvent(): EventToAppend {
  return sampleEvent('BetProposed', {
    betId: crypto.randomUUID(),
    stake: { amount: 1000, currency: 'EUR' },
    terms: 'Whoever loses buys the next round of coffee for the whole team',
  });
}

async function insertPlain(pool: Pool, streamId: string, events: EventToAppend[]): Promise<number> {
  await pool.query(
    `INSERT INTO bench_plain (${PLAIN_COLUMNS})
     SELECT $1, e.ord - 1, e.id, e.type, e.data, e.metadata
     FROM unnest($2::uuid[], $3::text[], $4::jsonb[], $5::jsonb[])
       WITH ORDINALITY AS e(id, type, data, metadata, ord)`,
    [
      streamId,
      events.map((e) => e.id),
      events.map((e) => e.type),
      events.map((e) => JSON.stringify(e.data)),
      events.map((e) => JSON.stringify(e.metadata)),
    ],
  );
  return events.length;
}

/** Opens `count` connections before the clock starts, so no measurement pays for connecting. */
async function warmUp(pool: Pool, count: number): Promise<void> {
  const outcomes = await Promise.allSettled(Array.from({ length: count }, () => pool.connect()));
  // Every connection is handed back, even when one failed: the pool cannot end while one is out.
  for (const outcome of outcomes) if (outcome.status === 'fulfilled') outcome.value.release();
  for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
}

/** Each figure is measured in this many slices, taken in turn with its baseline's. */
const ROUNDS = 3;

interface Tally {
  events: number;
  seconds: number;
  /** Next iteration of each worker, so later slices go on with new stream names. */
  next: number[];
}

/** Runs `step` in `workers` concurrent loops for `seconds`, adding to `tally`. */
async function slice(workers: number, step: Step, seconds: number, tally: Tally): Promise<void> {
  const start = performance.now();
  const deadline = start + seconds * 1000;
  const counts = await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      let events = 0;
      let i = tally.next[worker] ?? 0;
      for (; performance.now() < deadline; i++) events += await step(worker, i);
      tally.next[worker] = i;
      return events;
    }),
  );
  tally.events += counts.reduce((a, b) => a + b, 0);
  tally.seconds += (performance.now() - start) / 1000;
}

/**
 * Events per second of the baseline and of the store. They take turns in slices, so a shared
 * machine's load, which comes and goes, weighs on both alike.
 */
async function compare(pool: Pool, m: Measurement): Promise<{ plain: number; stored: number }> {
  const plain: Tally = { events: 0, seconds: 0, next: [] };
  const stored: Tally = { events: 0, seconds: 0, next: [] };
  await warmUp(pool, m.workers);
  for (let round = 0; round < ROUNDS; round++) {
    await slice(m.workers, m.plain, SECONDS / ROUNDS, plain);
    await slice(m.workers, m.store, SECONDS / ROUNDS, stored);
  }
  return { plain: plain.events / plain.seconds, stored: stored.events / stored.seconds };
}

/** A follower of the log as the app runs it: its name, and the event types it acts on. */
type Follower = Pick<Projector, 'name' | 'eventTypes'>;

/** Every follower the app runs: projectors, the notifier's dispatchers and scheduler, process managers. */
function appFollowers(store: EventStore, pool: Pool): Follower[] {
  return [
    ...allProjectors,
    { name: DISPATCHER_NAME, eventTypes: INVITE_DISPATCH_TYPES },
    { name: NOTIFICATIONS_DISPATCHER_NAME, eventTypes: NOTIFIABLE_TYPES },
    { name: DEADLINES_SCHEDULER_NAME, eventTypes: DEADLINE_EVENT_TYPES },
    // Only names and event types are read here: no picture is ever removed.
    ...processManagers({ store, pool, avatars: { removeAllOf: () => Promise.resolve() } }).map(
      (m) => ({ name: m.name, eventTypes: m.reactsTo }),
    ),
  ];
}

/**
 * Followers as the app runs them, through the projector runner (a lock, a checkpoint and a
 * transaction per page, passing over pages of types they do not act on), applying nothing: what
 * following costs the store, not the read models.
 */
async function follow(store: EventStore, pool: Pool, url: string, followers: Follower[]) {
  const logger = createLogger('silent');
  const head = await store.headPosition();
  const projectors: Projector[] = followers.map(({ name, eventTypes }) => ({
    name: `bench-${name}`,
    version: 1,
    tables: [],
    ...(eventTypes && { eventTypes }),
    apply: () => Promise.resolve(),
  }));
  // From the head of the log, so the earlier measurements' events are not replayed during this one.
  for (const projector of projectors) {
    await inTransaction(pool, async (client) => {
      await ensureFollowerBuild(client, projector);
      if (head) await saveCheckpoint(client, projector.name, 1, head, 0);
    });
  }
  const running = projectors.map((projector) =>
    runProjector(projector, { store, pool, connectionString: url, logger }),
  );
  await Promise.all(running.map((f) => f.active));
  return async () => {
    await Promise.all(running.map((f) => f.stop()));
  };
}

function measurements(store: EventStore, pool: Pool, url: string): Measurement[] {
  const list: Measurement[] = [];
  /** One event to a new stream per step, beside a one-row insert. */
  const toNewStreams = (cell: string): Pick<Measurement, 'store' | 'baseline' | 'plain'> => ({
    store: async (w, i) => {
      await store.appendToStream(`${cell}-${w}-${i}`, [benchEvent()], {
        expectedRevision: 'no_stream',
      });
      return 1;
    },
    baseline: '1-row INSERT',
    plain: (w, i) => insertPlain(pool, `${cell}-${w}-${i}`, [benchEvent()]),
  });
  for (const workers of [1, 8, MAX_WRITERS]) {
    list.push({
      scenario: 'append 1 event to a new stream',
      workers,
      ...toNewStreams(`new-${workers}`),
    });
  }
  for (const workers of [1, 8, MAX_WRITERS]) {
    const revisions: bigint[] = [];
    const streamOf = (w: number) => `existing-${workers}-${w}`;
    list.push({
      scenario: 'append 1 event to an existing stream at its revision',
      workers,
      prepare: async () => {
        for (let w = 0; w < workers; w++) {
          const result = await store.appendToStream(streamOf(w), [benchEvent()], {
            expectedRevision: 'no_stream',
          });
          revisions[w] = result.nextExpectedRevision;
        }
      },
      store: async (w) => {
        const result = await store.appendToStream(streamOf(w), [benchEvent()], {
          expectedRevision: revisions[w]!,
        });
        revisions[w] = result.nextExpectedRevision;
        return 1;
      },
      baseline: '1-row INSERT',
      plain: (w, i) => insertPlain(pool, `plain-${streamOf(w)}-${i}`, [benchEvent()]),
    });
  }
  for (const followers of [[{ name: 'one' }], appFollowers(store, pool)]) {
    list.push({
      scenario: `append 1 event to a new stream, ${followers.length === 1 ? '1 follower' : `all ${followers.length} of the app's followers`} live`,
      workers: 8,
      alongside: () => follow(store, pool, url, followers),
      ...toNewStreams(`followed-${followers.length}`),
    });
  }
  const batch = () => Array.from({ length: 100 }, benchEvent);
  for (const workers of [1, 8]) {
    list.push({
      scenario: 'append 100 events to a new stream',
      workers,
      store: async (w, i) => {
        await store.appendToStream(`batch-${workers}-${w}-${i}`, batch(), {
          expectedRevision: 'no_stream',
        });
        return 100;
      },
      baseline: '100-row INSERT',
      plain: (w, i) => insertPlain(pool, `batch-${workers}-${w}-${i}`, batch()),
    });
  }
  let after: string | null = null;
  let plainAfter = '0';
  list.push({
    scenario: `readAll, pages of ${PAGE}, from the start of the log`,
    workers: 1,
    store: async () => {
      const page = await store.readAll({ after, maxCount: PAGE });
      after = page.at(-1)?.position ?? null;
      return page.length;
    },
    baseline: `keyset SELECT of ${PAGE}`,
    plain: async () => {
      const page = await pool.query<{ global_position: string }>(
        `SELECT global_position, transaction_id, ${PLAIN_COLUMNS}, recorded_at FROM bench_plain
         WHERE global_position > $1 ORDER BY global_position LIMIT ${PAGE}`,
        [plainAfter],
      );
      plainAfter = page.rows.at(-1)?.global_position ?? '0';
      return page.rowCount ?? 0;
    },
  });
  return list;
}

/**
 * Throughput of the PostgreSQL event store beside plain PostgreSQL doing the same amount of work
 * on a table of the same shape, both measured in this run on a fresh database.
 */
export async function eventStoreBench(): Promise<void> {
  const database = await createTestDatabase('wagers_bench');
  const pool = createPool(database.url, MAX_WRITERS);
  const store = createPostgresEventStore(pool, { connectionString: database.url });
  try {
    await migrate(database.url, [platformMigrations]);
    await pool.query(PLAIN_TABLE);
    const server = await pool.query<{ version: string; sync: string }>(
      `SELECT current_setting('server_version') AS version, current_setting('synchronous_commit') AS sync`,
    );
    const policy = await serverPolicy(pool);
    const rows: Cell[][] = [];
    // BENCH_SCENARIOS=followers measures only the scenarios whose names contain that text.
    const only = process.env.BENCH_SCENARIOS;
    for (const m of measurements(store, pool, database.url)) {
      if (only && !m.scenario.includes(only)) continue;
      await m.prepare?.();
      const stop = await m.alongside?.();
      const { plain, stored } = await compare(pool, m);
      await stop?.();
      rows.push([
        m.scenario,
        { value: m.workers },
        { value: stored },
        m.baseline,
        { value: plain },
        { value: stored / plain, digits: 2 },
      ]);
    }
    const { host } = new URL(testServerUrl);
    printTable(
      `Event store (postgres adapter) vs plain PostgreSQL, events/s: PostgreSQL ${server.rows[0]?.version} at ${host}, ` +
        `synchronous_commit=${server.rows[0]?.sync}, under ${policy}, ${cpus().length} CPUs, ${SECONDS} s per figure`,
      ['scenario', 'workers', 'event store', 'baseline', 'baseline/s', 'ratio'],
      rows,
    );
  } finally {
    await store.close();
    await pool.end();
    await database.drop();
  }
}
