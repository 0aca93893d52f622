import type { Pool } from 'pg';
import { ConfigError, loadConfig } from '@wagers/platform/config';
import { createPool } from '@wagers/platform/db';
import { operatorDatabaseUrl } from '@wagers/platform/embedded';
import { createEventStore } from '@wagers/platform/event-store/factory';
import type { EventStore } from '@wagers/platform/event-store/port';

/**
 * Runs an operator's command against the database the services use (DATABASE_URL, else the one
 * `npm start` runs; EVENT_STORE) and exits with the code it returns: 0 done, 1 found a problem, 2 asked wrongly.
 * A command that could not run to its end (the database out of reach) exits 3: for `audit verify`,
 * 1 says the log was tampered with, which an outage or a bad setting must not be read as.
 */
export function runOperatorCommand(
  run: (deps: { pool: Pool; store: EventStore }) => Promise<number>,
): void {
  const main = async () => {
    const config = loadConfig();
    const databaseUrl = await operatorDatabaseUrl(config);
    // No database to reach (none named, the embedded one not running): it could not run.
    if (!databaseUrl) return 3;
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
      // A setting with a bad value is asked wrongly.
      if (error instanceof ConfigError) {
        console.error(error.message);
        process.exit(2);
      }
      console.error(`Could not finish: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(3);
    },
  );
}
