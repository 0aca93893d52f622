import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '@wagers/platform/db';
import { migrate, platformMigrations } from '@wagers/platform/migrations';
import { createTestDatabase } from '@wagers/platform/test-support/database';
import {
  eventStoreContractSuite,
  newEvent,
  uniqueStreamId,
  type EventStoreUnderTest,
} from './contract-suite.ts';
import { createPostgresEventStore } from './postgres.ts';
import type { EventStore } from './port.ts';

async function freshPostgresStore(): Promise<EventStoreUnderTest> {
  const database = await createTestDatabase('wagers_es');
  await migrate(database.url, [platformMigrations]);
  const pool = createPool(database.url, 8);
  const store = createPostgresEventStore(pool, { connectionString: database.url });
  return {
    store,
    async dispose() {
      await store.close();
      await pool.end();
      await database.drop();
    },
  };
}

eventStoreContractSuite('postgres', freshPostgresStore);

describe('postgres event store on its own database', () => {
  let underTest: EventStoreUnderTest;
  let store: EventStore;
  beforeAll(async () => {
    underTest = await freshPostgresStore();
    store = underTest.store;
  }, 60_000);
  afterAll(() => underTest.dispose(), 60_000);

  it('has no head and nothing to read while the log is empty', async () => {
    expect(await store.headPosition()).toBeNull();
    expect(await store.readAll({ after: null, maxCount: 10 })).toEqual([]);
  });

  it('reports the position of the last event written, which is then the head', async () => {
    const streamId = uniqueStreamId('pg_position');
    const result = await store.appendToStream(streamId, [newEvent(), newEvent()], {
      expectedRevision: 'no_stream',
    });

    const stored = await store.readStream(streamId);

    expect(stored[1]!.position).toBe(result.position);
    expect(await store.headPosition()).toBe(result.position);
  });
});
