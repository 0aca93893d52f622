import { performance } from 'node:perf_hooks';
import { lowerRebuildPriority, type RebuildPriority } from '@wagers/platform/backend-priority';
import { createPool } from '@wagers/platform/db';
import { createPostgresEventStore } from '@wagers/platform/event-store/postgres';
import { createLogger } from '@wagers/platform/logger';
import { betsProjector } from '@wagers/projection-service/bets/bets.projector';
import { rebuildProjector } from '@wagers/projection-service/operator/projections';

/**
 * The rebuild of the rebuild bench, in a process of its own as the operator's `projections
 * rebuild` runs: a fresh heap, not the one that has just written the log. Takes its options as
 * JSON in argv[2] and sends back what it measured.
 */
export interface RebuildOptions {
  databaseUrl: string;
  pageSize: number;
  logLevel: 'info' | 'warn';
  /** REBUILD_NICE: the process and its backends lowered as the operator's command lowers them. */
  nice: number;
}

export interface RebuildFigures {
  /** Wall-clock seconds of `rebuildProjector`, and the process's CPU seconds meanwhile. */
  seconds: number;
  cpuSeconds: number;
  /** The nice value the rebuild ran at, or why it ran as usual. */
  priority: RebuildPriority;
}

async function main(options: RebuildOptions): Promise<RebuildFigures> {
  // As the operator's command line: a small pool of its own.
  const pool = createPool(options.databaseUrl, 4);
  // The bench's fork leads no session of its own: its autogroup is the bench's.
  const priority = await lowerRebuildPriority(pool, options.nice, { ownSession: false });
  const store = createPostgresEventStore(pool, { connectionString: options.databaseUrl });
  try {
    const cpuBefore = process.cpuUsage();
    const start = performance.now();
    await rebuildProjector(betsProjector, {
      pool,
      store,
      connectionString: options.databaseUrl,
      logger: createLogger(options.logLevel),
      pageSize: options.pageSize,
      ...(priority.lowered ? { backendNice: priority.nice } : {}),
    });
    const seconds = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    return { seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, priority };
  } finally {
    await store.close();
    await pool.end();
  }
}

// Runs as the bench's child process; the bench itself imports the definitions above.
if (process.send && process.argv[1]?.endsWith('rebuild-child.ts')) {
  const figures = await main(JSON.parse(process.argv[2] ?? '{}') as RebuildOptions);
  await new Promise<void>((resolve) => process.send!(figures, () => resolve()));
  process.disconnect();
}
