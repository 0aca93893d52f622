import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import {
  startEventStoreDbUnderTest,
  type EventStoreDbUnderTest,
} from '@wagers/test-support/eventstoredb/under-test';
import { createPool } from '../db.ts';
import { migrate, platformMigrations } from '../migrations.ts';
import { verifyStream } from './chain-verifier.ts';
import { headReaching } from './contract-suite.ts';
import { createDataKeys } from './data-keys.ts';
import { connectEventStoreDb } from './eventstoredb.ts';
import { withHashChain } from './hash-chain.ts';
import { destroyDataKeys, storedForm, withPersonalData } from './personal-data.ts';
import type { EventStore, RecordedEvent } from './port.ts';
import { createPostgresEventStore } from './postgres.ts';
import { sampleEvent } from './sample-events.ts';
import { userSubject } from './sealed-fields.ts';

let database: TestDatabase;
let pool: pg.Pool;
let esdb: EventStoreDbUnderTest;

beforeAll(async () => {
  database = await createTestDatabase('wagers_personal_data');
  await migrate(database.url, [platformMigrations]);
  pool = createPool(database.url, 8);
  esdb = await startEventStoreDbUnderTest();
}, 120_000);
afterAll(async () => {
  await pool?.end();
  await database?.drop();
  await esdb?.stop();
}, 120_000);

const adapters: Record<string, () => EventStore> = {
  postgres: () => createPostgresEventStore(pool, { connectionString: database.url }),
  'eventstoredb stand-in': () => connectEventStoreDb(esdb.url),
};

/** A read the port may grow later: the decorator must open what it returns too. */
type WithBulkRead = EventStore & {
  readPages(after: null): AsyncIterable<RecordedEvent[]>;
  readBatch(options: { maxCount: number }): Promise<{ events: RecordedEvent[]; more: boolean }>;
};

function withMoreReads(store: EventStore): WithBulkRead {
  return {
    kind: store.kind,
    appendToStream: (...args) => store.appendToStream(...args),
    readStream: (...args) => store.readStream(...args),
    readStreams: (...args) => store.readStreams(...args),
    readAll: (...args) => store.readAll(...args),
    readAllPages: (...args) => store.readAllPages(...args),
    subscribeToAll: (...args) => store.subscribeToAll(...args),
    headPosition: () => store.headPosition(),
    close: () => store.close(),
    async *readPages() {
      yield await store.readAll({ maxCount: 10_000 });
    },
    async readBatch(options) {
      return { events: await store.readAll(options), more: false };
    },
  };
}

describe.each(Object.keys(adapters))('personal data sealed on %s', (adapter) => {
  let store: WithBulkRead;
  let other: EventStore;
  const userId = randomUUID();
  const stream = `user-${userId}`;
  const data = { userId, email: `${userId}@example.com`, firstName: 'Ann', lastName: 'Lee' };
  const mine = (events: RecordedEvent[]) => events.filter((event) => event.streamId === stream);

  beforeAll(async () => {
    const keys = () => createDataKeys(pool, database.url);
    store = withPersonalData(withMoreReads(withHashChain(adapters[adapter]!())), keys());
    // Another process: its own cache of keys, told of a destruction by NOTIFY.
    other = withPersonalData(withHashChain(adapters[adapter]!()), keys());
    const appended = await store.appendToStream(
      stream,
      [
        sampleEvent('UserRegistered', data),
        sampleEvent('ProfileUpdated', { userId, firstName: 'Ann', lastName: 'Lee' }),
      ],
      { expectedRevision: 'no_stream' },
    );
    await headReaching(store, appended.position);
  });
  afterAll(async () => {
    await store?.close();
    await other?.close();
  });

  it('stores the fields sealed, under a chain that verifies', async () => {
    const stored = await storedForm(store).readStream(stream);
    expect(JSON.stringify(stored.map((event) => event.data))).not.toMatch(
      /example\.com|"Ann"|"Lee"/,
    );
    expect(stored.map((event) => event.metadata.schemaVersion)).toEqual([2, 2]);
    expect((await verifyStream(store, pool, stream)).broken).toEqual([]);
  });

  it('opens them in every read: stream, log page, subscription and reads added later', async () => {
    expect((await store.readStream(stream))[0]!.data).toEqual(data);
    const [none, many] = await store.readStreams([`${stream}-none`, stream]);
    expect(none).toEqual([]);
    expect(many![0]!.data).toEqual(data);
    expect(mine(await store.readAll({ maxCount: 10_000 }))[0]!.data).toEqual(data);
    const pages: RecordedEvent[][] = [];
    for await (const page of store.readPages(null)) pages.push(page);
    expect(mine(pages.flat())[0]!.data).toEqual(data);
    expect(mine((await store.readBatch({ maxCount: 10_000 })).events)[0]!.data).toEqual(data);
    const delivered = await new Promise<RecordedEvent[]>((resolve, reject) => {
      const seen: RecordedEvent[] = [];
      const subscription = store.subscribeToAll({
        onEvents: (events) => {
          seen.push(...mine(events));
          return Promise.resolve();
        },
        onCaughtUp: () => {
          void subscription.stop().then(() => resolve(seen));
        },
        onError: reject,
      });
    });
    expect(delivered[0]!.data).toEqual(data);
    expect((await other.readStream(stream))[1]!.data).toMatchObject({ firstName: 'Ann' });
  });

  it('reads them as null everywhere once the key is destroyed; the chain still verifies', async () => {
    await destroyDataKeys(store, [userSubject(userId)]);
    const erased = { userId, email: null, firstName: null, lastName: null };
    expect((await store.readStream(stream))[0]!.data).toEqual(erased);
    expect(mine((await store.readBatch({ maxCount: 10_000 })).events)[0]!.data).toEqual(erased);
    await expect
      .poll(async () => (await other.readStream(stream))[0]!.data, { timeout: 5_000 })
      .toEqual(erased);
    expect((await verifyStream(store, pool, stream)).broken).toEqual([]);
  });

  it('never makes a destroyed user key again: a later event is stored erased', async () => {
    const last = (await store.readStream(stream)).at(-1)!;
    await store.appendToStream(
      stream,
      [sampleEvent('AvatarChanged', { userId, avatarUrl: '/a' })],
      {
        expectedRevision: last.revision,
      },
    );
    const stored = await storedForm(store).readStream(stream);
    expect(stored.at(-1)!.data).toEqual({ userId, avatarUrl: null });
  });
});
