import type { Pool } from 'pg';
import { ConfigError, loadConfig } from '@wagers/platform/config';
import { createPool } from '@wagers/platform/db';
import { operatorDatabaseUrl } from '@wagers/platform/embedded';
import { createEventStore } from '@wagers/platform/event-store/factory';
import type { EventStore } from '@wagers/platform/event-store/port';

/**
 * Runs an operator's command against the database the services use (DATABASE_URL, else the one
 * `npm start` runs; EVENT_STORE) and exits with the code it returns: 0 done, 1 found a problem, 2 asked wrongly.
 */
export function runOperatorCommand(
  run: (deps: { pool: Pool; store: EventStore }) => Promise<number>,
): void {
  const main = async () => {
    const config = loadConfig();
    const databaseUrl = await operatorDatabaseUrl(config);
    if (!databaseUrl) return 2;
    const pool = createPool(databaseUrl, 2);
    const store = createEventStore(config, pool, databaseUrl);
    try {
      return await run({ pool, store });
    } finally {
      await store.close();
      await pool.end();
    }
  };
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof ConfigError ? error.message : error);
      process.exit(1);
    },
  );
}
