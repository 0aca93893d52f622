import type { Pool } from 'pg';
import type { Config } from '../config.ts';
import type { EventStore } from './port.ts';
import { createPostgresEventStore } from './postgres.ts';

/** The event store the configuration names. */
export function createEventStore(
  config: Pick<Config, 'EVENT_STORE' | 'EVENTSTORE_URL'>,
  pool: Pool,
  databaseUrl: string,
): EventStore {
  if (config.EVENT_STORE === 'eventstoredb') {
    throw new Error('EVENT_STORE=eventstoredb is not available in this build');
  }
  return createPostgresEventStore(pool, { connectionString: databaseUrl });
}
