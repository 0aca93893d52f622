import type { Pool } from 'pg';
import { ConfigError, loadConfig } from '@wagers/platform/config';
import { createPool } from '@wagers/platform/db';
import { createEventStore } from '@wagers/platform/event-store/factory';
import type { EventStore } from '@wagers/platform/event-store/port';

/**
 * Runs an operator's command against the database the services use (DATABASE_URL, EVENT_STORE)
 * and exits with the code it returns: 0 done, 1 found a problem, 2 asked wrongly.
 */
export function runOperatorCommand(
  run: (deps: { pool: Pool; store: EventStore }) => Promise<number>,
): void {
  const main = async () => {
    const config = loadConfig();
    if (!config.DATABASE_URL) {
      console.error('DATABASE_URL is not set: point it at the database the services use.');
      return 2;
    }
    const pool = createPool(config.DATABASE_URL, 2);
    const store = createEventStore(config, pool, config.DATABASE_URL);
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
