import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import type { Logger } from './logger.ts';

export interface MigrationSet {
  /** Folder of SQL migrations ("-- Up Migration" / "-- Down Migration" sections). */
  dir: string;
  /** Each owner keeps its own history table, so services migrate independently. */
  table: string;
}

/** The platform's own tables: the event log, projection checkpoints, sessions, sign-in links. */
export const platformMigrations: MigrationSet = {
  dir: fileURLToPath(new URL('../migrations', import.meta.url)),
  table: 'pgmigrations_platform',
};

/** Brings the database up to date; safe to run from several processes at once (it takes a lock). */
export async function migrate(
  databaseUrl: string,
  sets: MigrationSet[],
  logger?: Logger,
): Promise<void> {
  for (const set of sets) {
    const applied = await runner({
      databaseUrl,
      dir: set.dir,
      migrationsTable: set.table,
      direction: 'up',
      count: Infinity,
      checkOrder: false,
      log: () => undefined,
      logger: {
        debug: () => undefined,
        info: () => undefined,
        warn: (message: string) => logger?.warn({ migrations: set.table }, message),
        error: (message: string) => logger?.error({ migrations: set.table }, message),
      },
    });
    if (applied.length > 0) {
      logger?.info(
        { migrations: set.table, applied: applied.map((m) => m.name) },
        'migrations applied',
      );
    }
  }
}
