import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '@wagers/platform/config';
import { createPool } from '@wagers/platform/db';
import { createPostgresEventStore } from '@wagers/platform/event-store/postgres';
import type { GlobalPosition } from '@wagers/contracts/position';
import { migrate, platformMigrations } from '@wagers/platform/migrations';
import { readLiveBuild } from '@wagers/platform/projections/checkpoints';
import { createTestDatabase } from '@wagers/test-support/database';
import { readModelMigrations } from '@wagers/projection-service/migrations';
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
  } finally {
    await store.close();
    await pool.end();
    await database.drop();
  }
}
