import type { Pool } from 'pg';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { createPool } from '../db.ts';
import { createPostgresEventStore } from '../event-store/postgres.ts';
import type { EventStore } from '../event-store/port.ts';
import { migrate, platformMigrations } from '../migrations.ts';
import { ProjectionWatcher } from './watcher.ts';

/** For specs of followers and readers: a log on a fresh database, and a watcher of its builds. */
export interface WatchedLog {
  db: TestDatabase;
  pool: Pool;
  store: EventStore;
  watcher: ProjectionWatcher;
}

/** A fresh database with the platform's tables, its PostgreSQL event store and a started watcher. */
export async function openWatchedLog(): Promise<WatchedLog> {
  const db = await createTestDatabase();
  await migrate(db.url, [platformMigrations]);
  const pool = createPool(db.url);
  const store = createPostgresEventStore(pool, { connectionString: db.url });
  const watcher = new ProjectionWatcher(pool, db.url);
  await watcher.start();
  return { db, pool, store, watcher };
}

/** Closes what `openWatchedLog` opened and drops its database. */
export async function closeWatchedLog(log: WatchedLog): Promise<void> {
  await log.watcher.close();
  await log.store.close();
  await log.pool.end();
  await log.db.drop();
}
