import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import { loadConfig } from '@wagers/platform/config';
import { createPool } from '@wagers/platform/db';
import { createEventStore } from '@wagers/platform/event-store/factory';
import { createPostgresEventStore } from '@wagers/platform/event-store/postgres';
import { createLogger } from '@wagers/platform/logger';
import type { GlobalPosition } from '@wagers/contracts/position';
import { migrate, platformMigrations } from '@wagers/platform/migrations';
import { readBuilds, readLiveBuild } from '@wagers/platform/projections/checkpoints';
import { runProjector } from '@wagers/platform/projections/runner';
import { createTestDatabase } from '@wagers/test-support/database';
import { betsProjector } from '@wagers/projection-service/bets/bets.projector';
import { readModelMigrations } from '@wagers/projection-service/migrations';
import { buildApart } from '@wagers/projection-service/operator/build-apart';
import { writeBetLog } from '@wagers/projection-service/test-support/bet-log';
import type { RebuildFigures, RebuildOptions } from './rebuild-child.ts';
import { printTable, type Cell } from './table.ts';

/** REBUILD_EVENTS=200000 for a quicker run; REBUILD_PAGE sets the events per page (10,000). */
const EVENTS = Number(process.env.REBUILD_EVENTS ?? 1_000_000);
const USERS = 2_000;
const PAGE = Number(process.env.REBUILD_PAGE ?? 10_000);

/** Rebuilds in a process of its own (rebuild-child.ts), as the operator's command line does. */
function rebuildInChild(options: RebuildOptions): Promise<RebuildFigures> {
  const script = new URL('./rebuild-child.ts', import.meta.url).pathname;
  const child = fork(script, [JSON.stringify(options)], { execArgv: ['--import', 'tsx'] });
  return new Promise((resolve, reject) => {
    let figures: RebuildFigures | null = null;
    child.once('message', (message) => (figures = message as RebuildFigures));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 && figures
        ? resolve(figures)
        : reject(new Error(`the rebuild's process exited with ${code}`)),
    );
  });
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return (performance.now() - start) / 1000;
}

interface ServiceBuildFigures {
  seconds: number;
  /** CPU seconds of this process, the service, meanwhile. */
  cpuSeconds: number;
  /** The service's event-loop delay, ms: what a request or a live page waited meanwhile. */
  delayP99: number;
  delayMax: number;
}

/**
 * A deploy that raises the bets projector's version, as a service of the product's meets it: this
 * process runs the projector as the projection service does, and its new build is loaded here or
 * (`apart`) by a process of its own, until reads switch to it.
 */
async function serviceBuild(
  databaseUrl: string,
  pool: Pool,
  apart: boolean,
): Promise<ServiceBuildFigures> {
  await pool.query(
    "UPDATE projection_checkpoints SET version = $1 WHERE name = 'bets' AND status = 'live'",
    [betsProjector.version - 1],
  );
  const config = loadConfig();
  const logger = createLogger('warn');
  const store = createEventStore(config, pool, databaseUrl);
  // Every build handed over, whatever the log's length, so the bench's small runs take this path.
  const handOver = apart
    ? buildApart({ ...config, BUILD_APART_EVENTS: 1 }, databaseUrl, logger, { pageSize: PAGE })
    : undefined;
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const runner = runProjector(betsProjector, {
    store,
    pool,
    connectionString: databaseUrl,
    logger,
    pageSize: PAGE,
    ...(handOver && { buildApart: handOver }),
  });
  try {
    for (;;) {
      const live = (await readBuilds(pool, 'bets')).find((row) => row.status === 'live');
      if (live?.version === betsProjector.version) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const seconds = (performance.now() - start) / 1000;
    delay.disable();
    const cpu = process.cpuUsage(cpuBefore);
    return {
      seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      delayP99: delay.percentile(99) / 1e6,
      delayMax: delay.max / 1e6,
    };
  } finally {
    await runner.stop();
    await store.close();
  }
}

/**
 * Rebuilds the bets projector from zero (in a process of its own, as the operator's command line
 * does) over a log of EVENTS events in a fresh database, beside baselines from the same run on the
 * same database: reading the log page by page with no writes (the bulk read a build uses, and
 * readAll), and copying the finished rows into unindexed tables.
 */
export async function rebuildBench(): Promise<void> {
  const database = await createTestDatabase('wagers_bench');
  const pool = createPool(database.url, 12);
  const store = createPostgresEventStore(pool, { connectionString: database.url });
  try {
    await migrate(database.url, [platformMigrations, readModelMigrations]);
    const bets = Math.floor((EVENTS - USERS) / 5);
    let total = 0;
    const writing = await timed(async () => {
      total = await writeBetLog(pool, { users: USERS, bets, writers: 8 });
      // Hint bits and statistics set once for every reader, so no timed read pays for them; and
      // the setup's writes flushed to disk, so no timed part pays for their checkpoint.
      await pool.query('VACUUM ANALYZE es_events');
      await pool.query('CHECKPOINT');
    });
    console.log(
      `\nLog: ${total.toLocaleString('en-US')} events (${USERS} users, ${bets.toLocaleString('en-US')} bets of five events, 8 writers), written in ${writing.toFixed(1)} s`,
    );

    const bulkReading = await timed(async () => {
      let read = 0;
      for await (const page of store.readAllPages({ pageSize: PAGE })) read += page.length;
      if (read !== total) throw new Error(`The bulk read gave ${read} of ${total} events`);
    });
    const reading = await timed(async () => {
      let after: GlobalPosition | null = null;
      for (;;) {
        const page = await store.readAll({ after, maxCount: PAGE });
        if (page.length === 0) break;
        after = page.at(-1)!.position;
      }
    });

    const {
      seconds: rebuilding,
      cpuSeconds,
      priority,
    } = await rebuildInChild({
      databaseUrl: database.url,
      pageSize: PAGE,
      nice: loadConfig().REBUILD_NICE,
      logLevel: process.env.BENCH_LOG_LEVEL === 'info' ? 'info' : 'warn',
    });
    const live = await readLiveBuild(pool, 'bets');
    const counts = await pool.query<{ bets: string; history: string }>(
      'SELECT (SELECT count(*) FROM rm_bets) AS bets, (SELECT count(*) FROM rm_bet_history) AS history',
    );
    if (Number(counts.rows[0]?.bets) !== bets || Number(counts.rows[0]?.history) !== bets * 5) {
      throw new Error(`The rebuild is incomplete: ${JSON.stringify(counts.rows[0])}`);
    }

    const copying = await timed(async () => {
      await pool.query('CREATE TABLE bench_bets AS SELECT * FROM rm_bets WITH NO DATA');
      await pool.query('CREATE TABLE bench_history AS SELECT * FROM rm_bet_history WITH NO DATA');
      await pool.query(`INSERT INTO bench_bets SELECT * FROM ${live!.schemaName!}.rm_bets`);
      await pool.query(
        `INSERT INTO bench_history SELECT * FROM ${live!.schemaName!}.rm_bet_history`,
      );
    });

    const row = (scenario: string, seconds: number): Cell[] => [
      scenario,
      { value: seconds, digits: 1 },
      { value: total / seconds },
      { value: copying / seconds, digits: 2 },
    ];
    printTable(
      `Rebuild of the bets projector from zero (page ${PAGE.toLocaleString('en-US')} events; ${priority.lowered ? `the rebuild's process and backends at nice ${priority.nice}, as the operator's command runs it (decision 36)` : `the rebuild at the usual priority: ${priority.reason}`}; target 50,000 events/s)`,
      ['scenario', 'seconds', 'events/s', 'x copy baseline'],
      [
        row('rebuild bets (new build, indexes, switch)', rebuilding),
        row('baseline: bulk read of the log (readAllPages), no writes', bulkReading),
        row('baseline: read the log with readAll, no writes', reading),
        row('baseline: copy the finished rows, no indexes', copying),
      ],
    );
    // The machine is shared: CPU time moves less with other work than the clock does.
    console.log(
      `Node.js CPU of the rebuild's process: ${cpuSeconds.toFixed(1)} s (${((cpuSeconds / total) * 1e6).toFixed(1)} µs per event), load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')}`,
    );

    const inService = await serviceBuild(database.url, pool, false);
    const handedOver = await serviceBuild(database.url, pool, true);
    const serviceRow = (scenario: string, figures: ServiceBuildFigures): Cell[] => [
      scenario,
      { value: figures.seconds, digits: 1 },
      { value: total / figures.seconds },
      { value: figures.cpuSeconds, digits: 1 },
      { value: figures.delayP99, digits: 1 },
      { value: figures.delayMax, digits: 1 },
    ];
    printTable(
      "A deploy raises the bets projector's version: the service's new build, until reads switch to it, and the service's own thread meanwhile (CPU seconds; event-loop delay in ms, what its requests and live pages waited)",
      ['new build loaded', 'seconds', 'events/s', 'service CPU', 'delay p99', 'delay max'],
      [
        serviceRow("in the service's thread (BUILD_APART_EVENTS=0)", inService),
        serviceRow('by a process of its own (BUILD_APART_EVENTS)', handedOver),
      ],
    );
  } finally {
    await store.close();
    await pool.end();
    await database.drop();
  }
}
