import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  constants,
  monitorEventLoopDelay,
  performance,
  PerformanceObserver,
  type IntervalHistogram,
} from 'node:perf_hooks';
import pg from 'pg';
import { loadConfig } from '@wagers/platform/config';
import { createPool } from '@wagers/platform/db';
import { createPostgresEventStore } from '@wagers/platform/event-store/postgres';
import { livePageEvents, livePageSeconds } from '@wagers/platform/projections/page-metrics';
import { ProjectionWatcher } from '@wagers/platform/projections/watcher';
import { allProjectors } from '@wagers/projection-service/projectors';
import { startTestApp } from '../test-support/test-app.ts';
import { proposal, sharedNow, type WritersMessage, type WritersOptions } from './live-writers.ts';
import { serverPolicy } from './cpu.ts';
import { printTable } from './table.ts';

/** How long the writers' appends are counted; BENCH_SECONDS=20 for steadier figures. */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Appends before the count starts, while the app's connections open and its code warms up. */
const WARM_UP_SECONDS = 2;
const WRITERS = 8;
const IDLE_SECONDS = 10;

/** The read models a bet proposal changes: a screen read after it waits for those it reads. */
const REACHED = allProjectors
  .filter((projector) => projector.eventTypes?.has('BetProposed') ?? true)
  .map((projector) => projector.name);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Transactions the database has finished, all connections together (one per query outside BEGIN). */
async function transactions(admin: pg.Client, database: string): Promise<number> {
  const result = await admin.query<{ n: string }>(
    'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1',
    [database],
  );
  return Number(result.rows[0]?.n);
}

/**
 * PostgreSQL 15 adds a backend's transactions to the database's counts at most once a second, and
 * a backend that has gone idle only after 10 s (PGSTAT_IDLE_INTERVAL): transactions made just
 * before a measurement would be counted in it.
 */
const STATS_SETTLE_MS = 11_000;

/** Queries per second the app issues while nothing is appended. */
async function idleQueriesPerSecond(admin: pg.Client, database: string): Promise<number> {
  // What the app did before (the burst, an append) is counted before the first reading.
  await new Promise((resolve) => setTimeout(resolve, STATS_SETTLE_MS));
  const before = await transactions(admin, database);
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  await admin.query('SELECT pg_stat_clear_snapshot()');
  await new Promise((resolve) => setTimeout(resolve, 1500));
  // Our own two reads of the counter are not the app's.
  return (await transactions(admin, database)) - before - 2;
}

/** Starts the writers' process (live-writers.ts); it appends once told to start. */
function startWriters(options: WritersOptions, onMessage: (message: WritersMessage) => void) {
  const script = new URL('./live-writers.ts', import.meta.url).pathname;
  const child = fork(script, [JSON.stringify(options)], { execArgv: ['--import', 'tsx'] });
  child.on('message', (message) => onMessage(message as WritersMessage));
  const exited = new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`the writers exited with ${code}`)),
    );
  });
  return { start: () => child.send('start'), exited };
}

/**
 * The whole app (every projector, process manager and notifier follower, as `npm start` runs
 * them) while 8 writers in a process of their own (as the command service is) append bet
 * proposals as fast as they can: how long from an append's commit until the bets read model shows
 * it, and until every read model the proposal changes does, beside a follower that applies nothing
 * (what the log itself lets readers see) and a NOTIFY's own trip, measured under the same load.
 * The first seconds of appends are not counted, while the app warms up. Then, with nothing
 * appended, how many queries the idle followers issue per second, with and without an unrelated
 * open transaction holding back the log's visibility horizon.
 */
export async function liveLatencyBench(): Promise<void> {
  const app = await startTestApp({ env: { NOTIFIER_CONCURRENCY: '0' } });
  const pool = createPool(app.databaseUrl, 4);
  const policy = await serverPolicy(pool);
  const store = createPostgresEventStore(pool, { connectionString: app.databaseUrl });
  const watcher = new ProjectionWatcher(pool, app.databaseUrl);
  const admin = new pg.Client({ connectionString: app.databaseUrl });
  const listener = new pg.Client({ connectionString: app.databaseUrl });
  try {
    await Promise.all([watcher.start(), admin.connect(), listener.connect()]);
    const users = [randomUUID(), randomUUID()] as const;

    const latencies: number[] = [];
    const everyLatencies: number[] = [];
    const notifyTrips: number[] = [];
    // A bare follower of the log: when the event store lets a reader see each append at all. An
    // event may reach it before word of its commit reaches this process: then it waits here.
    const commits = new Map<string, number>();
    const arrivals = new Map<string, number>();
    const delivered: number[] = [];
    const bare = store.subscribeToAll({
      after: await store.headPosition(),
      onEvents: (events) => {
        const now = sharedNow();
        for (const event of events) {
          const at = commits.get(event.id);
          if (at === undefined) arrivals.set(event.id, now);
          else if (at >= 0) delivered.push(now - at);
        }
        return Promise.resolve();
      },
    });
    const waits: Promise<void>[] = [];
    let counted = 0;
    let lowered = 0;
    let writing = true;
    const writers = startWriters(
      {
        databaseUrl: app.databaseUrl,
        writers: WRITERS,
        warmUpSeconds: WARM_UP_SECONDS,
        seconds: SECONDS,
        creatorId: users[0],
        opponentId: users[1],
        appendNice: loadConfig().APPEND_NICE,
      },
      (message) => {
        if (message.kind === 'done') {
          counted = message.counted;
          lowered = message.lowered;
          writing = false;
          return;
        }
        // Not counted: remembered as such, so its delivery is not taken for an unknown event's.
        const at = message.counted ? message.at : -1;
        const arrived = arrivals.get(message.id);
        if (arrived !== undefined) {
          arrivals.delete(message.id);
          if (at >= 0) delivered.push(Math.max(0, arrived - at));
        } else commits.set(message.id, at);
        if (at < 0) return;
        waits.push(
          watcher.waitFor(['bets'], message.position, 30_000).then((seen) => {
            if (seen) latencies.push(sharedNow() - at);
          }),
          watcher.waitFor(REACHED, message.position, 30_000).then((seen) => {
            if (seen) everyLatencies.push(sharedNow() - at);
          }),
        );
      },
    );
    // The floor for any follower woken by the database: a notification's own trip, same load.
    await listener.query('LISTEN bench_trip');
    writers.start();
    const countFrom = performance.now() + WARM_UP_SECONDS * 1000;
    // The app's live pages are counted from the same moment as the appends.
    const thread = watchThread();
    const pagesCounted = setTimeout(() => {
      livePageSeconds.reset();
      livePageEvents.reset();
      thread.start();
    }, WARM_UP_SECONDS * 1000);
    const trips = (async () => {
      while (writing) {
        const arrived = new Promise<void>((resolve) =>
          listener.once('notification', () => resolve()),
        );
        const sent = performance.now();
        await admin.query(`NOTIFY bench_trip`);
        await arrived;
        if (sent >= countFrom) notifyTrips.push(performance.now() - sent);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await writers.exited;
    clearTimeout(pagesCounted);
    const threadFigures = thread.stop();
    const pages = await livePages();
    await trips;
    await Promise.all(waits);
    await bare.stop();
    delivered.sort((a, b) => a - b);
    latencies.sort((a, b) => a - b);
    everyLatencies.sort((a, b) => a - b);
    notifyTrips.sort((a, b) => a - b);
    const row = (scenario: string, sorted: number[]) => [
      scenario,
      { value: sorted.length },
      { value: percentile(sorted, 50), digits: 1 },
      { value: percentile(sorted, 90), digits: 1 },
      { value: percentile(sorted, 99), digits: 1 },
      { value: sorted.at(-1) ?? NaN, digits: 1 },
    ];
    printTable(
      `Live projection: ${WRITERS} writers (a process of their own) appending for ${SECONDS} s after ${WARM_UP_SECONDS} s of warm-up (${Math.round(counted / SECONDS).toLocaleString('en-US')} appends/s; their backends ${lowered === WRITERS ? `at nice ${loadConfig().APPEND_NICE}, as the command service's appends (decision 35)` : `at the usual priority (${lowered} of ${WRITERS} lowered)`}), every follower running, PostgreSQL under ${policy}; target p99 <= 50 ms`,
      ['from commit until', 'samples', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms'],
      [
        row('the bets read model shows it', latencies),
        row(`every read model it changes shows it (${REACHED.length})`, everyLatencies),
        row('baseline: a bare follower of the log gets it', delivered),
        row('baseline: a NOTIFY arrives', notifyTrips),
      ],
    );

    printTable(
      `Live pages each projector applied while the appends were counted (from its events in hand to its commit; percentiles are the upper bounds of /metrics buckets)`,
      ['projector', 'pages', 'events per page', 'mean ms', 'p50 ms <=', 'p99 ms <='],
      pages.map((page) => [
        page.projector,
        { value: page.count },
        { value: page.events / page.count, digits: 1 },
        { value: (page.seconds / page.count) * 1000, digits: 1 },
        { value: page.p50 * 1000 },
        { value: page.p99 * 1000 },
      ]),
    );

    printTable(
      `The app's process while the appends were counted: its thread's delays (event-loop delay, p50 / p99 / max) and garbage collections (pauses of its thread); CPU in cores`,
      [
        'cpu',
        'delay p50 ms',
        'delay p99 ms',
        'delay max ms',
        'scavenges',
        'mean ms',
        'max ms',
        'marks',
        'max ms',
      ],
      [
        [
          { value: threadFigures.cores, digits: 2 },
          { value: threadFigures.delay.p50, digits: 1 },
          { value: threadFigures.delay.p99, digits: 1 },
          { value: threadFigures.delay.max, digits: 1 },
          { value: threadFigures.scavenges.length },
          { value: mean(threadFigures.scavenges), digits: 1 },
          { value: Math.max(0, ...threadFigures.scavenges), digits: 1 },
          { value: threadFigures.marks.length },
          { value: Math.max(0, ...threadFigures.marks), digits: 1 },
        ],
      ],
    );

    const database = new URL(app.databaseUrl).pathname.slice(1);
    // Leave autovacuum nothing to do after the burst: its work would count as the app's queries.
    await admin.query('VACUUM ANALYZE');
    const quiet = await idleQueriesPerSecond(admin, database);
    // An unrelated transaction that has taken an id and stays open holds back the horizon.
    const holder = new pg.Client({ connectionString: app.databaseUrl });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT pg_current_xact_id()');
    const { stream, event } = proposal(users[0], users[1]);
    await store.appendToStream(stream, [event], { expectedRevision: 'no_stream' });
    const held = await idleQueriesPerSecond(admin, database);
    await holder.query('ROLLBACK');
    await holder.end();
    printTable(
      `Idle followers: queries per second over ${IDLE_SECONDS} s with nothing appended`,
      ['situation', 'queries/s'],
      [
        ['nothing holds the horizon', { value: quiet / IDLE_SECONDS, digits: 1 }],
        [
          'an unrelated transaction stays open after one append',
          { value: held / IDLE_SECONDS, digits: 1 },
        ],
      ],
    );
  } finally {
    await watcher.close();
    await listener.end();
    await admin.end();
    await store.close();
    await pool.end();
    await app.stop();
  }
}

const mean = (values: number[]) =>
  values.length === 0 ? NaN : values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * What the measuring process's own thread went through (the app's followers run on it): its
 * event-loop delay, the pauses of its garbage collections (young-generation scavenges, and the
 * pauses of the old generation's marking and compaction), and its CPU, from `start` to `stop`.
 */
function watchThread() {
  const DELAY_RESOLUTION_MS = 2;
  let delay: IntervalHistogram | null = null;
  let cpu: NodeJS.CpuUsage | null = null;
  let since = 0;
  const scavenges: number[] = [];
  const marks: number[] = [];
  const collections = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { detail } = entry as { detail?: { kind?: number } | null };
      const kind = detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) scavenges.push(entry.duration);
      else if (
        kind === constants.NODE_PERFORMANCE_GC_MAJOR ||
        kind === constants.NODE_PERFORMANCE_GC_INCREMENTAL
      )
        marks.push(entry.duration);
    }
  });
  return {
    start() {
      delay = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
      delay.enable();
      cpu = process.cpuUsage();
      since = performance.now();
      collections.observe({ entryTypes: ['gc'] });
    },
    stop() {
      collections.disconnect();
      delay?.disable();
      const used = cpu ? process.cpuUsage(cpu) : { user: 0, system: 0 };
      // The histogram holds each timer's whole interval: the delay is what it took past it.
      const ms = (ns: number | undefined) => Math.max(0, (ns ?? NaN) / 1e6 - DELAY_RESOLUTION_MS);
      return {
        cores: (used.user + used.system) / 1000 / (performance.now() - since),
        delay: {
          p50: ms(delay?.percentile(50)),
          p99: ms(delay?.percentile(99)),
          max: ms(delay?.max),
        },
        scavenges,
        marks,
      };
    },
  };
}

/** Per projector: live pages applied, their events and seconds, and bucket-bound percentiles. */
async function livePages() {
  const [seconds, events] = await Promise.all([livePageSeconds.get(), livePageEvents.get()]);
  const byProjector = new Map<
    string,
    { count: number; seconds: number; events: number; buckets: [number, number][] }
  >();
  const entry = (projector: string) => {
    const found = byProjector.get(projector) ?? { count: 0, seconds: 0, events: 0, buckets: [] };
    byProjector.set(projector, found);
    return found;
  };
  for (const { metricName, labels, value } of seconds.values) {
    const page = entry(String(labels.projector));
    if (metricName?.endsWith('_count')) page.count = value;
    else if (metricName?.endsWith('_sum')) page.seconds = value;
    else {
      const { le } = labels as { le?: string | number };
      if (le !== undefined) page.buckets.push([Number(le), value]);
    }
  }
  for (const { metricName, labels, value } of events.values) {
    if (metricName?.endsWith('_sum')) entry(String(labels.projector)).events = value;
  }
  /** The smallest bucket bound holding the share `q` of pages. */
  const bound = (buckets: [number, number][], count: number, q: number) =>
    buckets.sort((a, b) => a[0] - b[0]).find(([, below]) => below >= q * count)?.[0] ?? Infinity;
  return [...byProjector]
    .filter(([, page]) => page.count > 0)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([projector, page]) => ({
      projector,
      ...page,
      p50: bound(page.buckets, page.count, 0.5),
      p99: bound(page.buckets, page.count, 0.99),
    }));
}
