import { ConfigError, loadConfig } from '@wagers/platform/config';
import { createPool } from '@wagers/platform/db';
import { createEventStore } from '@wagers/platform/event-store/factory';
import { createLogger } from '@wagers/platform/logger';
import {
  projectionStatus,
  rebuildProjector,
  type RebuildProgress,
} from './operator/projections.ts';
import { allProjectors } from './projectors.ts';

const usage = `Usage: npm run projections -w projection-service -- <command>

  status            each projector's checkpoint and its lag behind the head of the log
  rebuild <name>    empty a projector's tables and replay the log into them, showing progress

Reads DATABASE_URL (and EVENT_STORE) like the services do.`;

function formatStatus(rows: Awaited<ReturnType<typeof projectionStatus>>): string {
  const header = ['projector', 'version', 'status', 'checkpoint', 'lag (events)', 'lag (seconds)'];
  const lines = rows.map((row) => [
    row.name,
    String(row.version),
    row.status,
    row.position ?? '(start)',
    String(row.events),
    row.seconds.toFixed(1),
  ]);
  const widths = header.map((title, i) =>
    Math.max(title.length, ...lines.map((line) => line[i]!.length)),
  );
  const format = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
  const head = rows[0]?.head ?? '(empty log)';
  return [`head of the log: ${head}`, format(header), ...lines.map(format)].join('\n');
}

function showProgress(progress: RebuildProgress): void {
  const percent =
    progress.total === 0 ? 100 : Math.floor((progress.applied / progress.total) * 100);
  const line = `${progress.name}: ${progress.applied}/${progress.total} events (${percent}%), replayed by ${progress.runner}`;
  process.stdout.write(progress.caughtUp ? `\r${line} - caught up\n` : `\r${line}`);
}

async function main(args: string[]): Promise<number> {
  const [command, name] = args;
  if (command !== 'status' && command !== 'rebuild') {
    console.error(usage);
    return 2;
  }
  const config = loadConfig();
  if (!config.DATABASE_URL) {
    console.error('DATABASE_URL is not set: point it at the database the services use.');
    return 2;
  }
  const logger = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL, {
    service: 'projections-cli',
  });
  const pool = createPool(config.DATABASE_URL, 4);
  const store = createEventStore(config, pool, config.DATABASE_URL);
  try {
    if (command === 'status') {
      console.log(formatStatus(await projectionStatus(pool, store, allProjectors)));
      return 0;
    }
    const projector = allProjectors.find((p) => p.name === name);
    if (!projector) {
      console.error(
        `No projector named "${name ?? ''}". Known: ${allProjectors.map((p) => p.name).join(', ')}`,
      );
      return 2;
    }
    await rebuildProjector(projector, {
      pool,
      store,
      connectionString: config.DATABASE_URL,
      logger,
      onProgress: showProgress,
    });
    return 0;
  } finally {
    await store.close();
    await pool.end();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
