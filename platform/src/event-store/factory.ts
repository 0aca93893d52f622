import type { Pool } from 'pg';
import type { Config } from '../config.ts';
import { connectEventStoreDb } from './eventstoredb.ts';
import { createDataKeys } from './data-keys.ts';
import { withHashChain } from './hash-chain.ts';
import { withPersonalData } from './personal-data.ts';
import type { EventStore } from './port.ts';
import { createPostgresEventStore } from './postgres.ts';

/**
 * The event store the configuration names: the es_events table reached through `pool` (its
 * followers LISTEN on a connection of their own to `databaseUrl`; appends go through
 * `appendPool` when given), or an EventStoreDB server;
 * either way every append is hash-chained, and personal fields are sealed with their subject's
 * key before the chain's hash covers them (decision 0018).
 */
export function createEventStore(
  config: Pick<Config, 'EVENT_STORE' | 'EVENTSTORE_URL'>,
  pool: Pool,
  databaseUrl: string,
  { appendPool }: { appendPool?: Pool } = {},
): EventStore {
  return withPersonalData(
    withHashChain(createAdapter(config, pool, databaseUrl, appendPool)),
    createDataKeys(pool, databaseUrl),
  );
}

function createAdapter(
  config: Pick<Config, 'EVENT_STORE' | 'EVENTSTORE_URL'>,
  pool: Pool,
  databaseUrl: string,
  appendPool: Pool | undefined,
): EventStore {
  switch (config.EVENT_STORE) {
    case 'postgres':
      return createPostgresEventStore(pool, { connectionString: databaseUrl, appendPool });
    case 'eventstoredb':
      if (!config.EVENTSTORE_URL) throw new Error('EVENT_STORE=eventstoredb needs EVENTSTORE_URL');
      return connectEventStoreDb(config.EVENTSTORE_URL);
    default: {
      const unknown: never = config.EVENT_STORE;
      throw new Error(`Unknown EVENT_STORE: ${String(unknown)}`);
    }
  }
}
