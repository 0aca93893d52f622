import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { createPool } from '../db.ts';
import { migrate, platformMigrations } from '../migrations.ts';
import { withPageStreams, withStreamsRead } from './page-streams.ts';
import type { EventStore } from './port.ts';
import { createPostgresEventStore } from './postgres.ts';
import { sampleEvent } from './sample-events.ts';

describe('a page that answers reads of the streams born in it', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let store: EventStore;
  beforeAll(async () => {
    database = await createTestDatabase();
    await migrate(database.url, [platformMigrations]);
    pool = createPool(database.url, 4);
    store = createPostgresEventStore(pool, { connectionString: database.url });
  });
  afterAll(async () => {
    await store.close();
    await pool.end();
    await database.drop();
  });

  it('gives a stream born in the page as of the page, and reads any other from the store', async () => {
    const append = (stream: string, n: number) =>
      store.appendToStream(
        stream,
        Array.from({ length: n }, (_, i) => sampleEvent('Step', { i })),
        { expectedRevision: 'any' },
      );
    await append('older', 2);
    const before = await store.headPosition();
    await append('born', 2);
    await append('older', 1);
    await append('born', 1);
    const page = await store.readAll({ after: before, maxCount: 100 });
    // Written after the page was read: the page's answer stops where the page does.
    await append('born', 1);

    const streams = withPageStreams(store, page);

    const born = await streams.readStream('born');
    expect(born.map((event) => event.revision)).toEqual([0n, 1n, 2n]);
    expect(born.map((event) => event.id)).toEqual(
      page.filter((event) => event.streamId === 'born').map((event) => event.id),
    );
    expect(
      (await streams.readStream('born', { fromRevision: 1n, maxCount: 1 })).map((e) => e.revision),
    ).toEqual([1n]);
    // Begun before the page: read whole from the store, its older events too.
    expect((await streams.readStream('older')).map((event) => event.revision)).toEqual([
      0n,
      1n,
      2n,
    ]);
    expect(await streams.headPosition()).toEqual(await store.headPosition());
  });

  it('reads the streams a decision rests on together, and answers later reads from that read', async () => {
    await store.appendToStream('decide-a', [sampleEvent('Step', {})], { expectedRevision: 'any' });
    const read = await withStreamsRead(store, ['decide-a', 'decide-none']);
    // Written after the read: the decision is taken on what was read.
    await store.appendToStream('decide-a', [sampleEvent('Step', {})], { expectedRevision: 'any' });
    await store.appendToStream('decide-b', [sampleEvent('Step', {})], { expectedRevision: 'any' });

    expect(await read.readStream('decide-a')).toHaveLength(1);
    expect(await read.readStream('decide-none')).toEqual([]);
    // Not read before: from the store.
    expect(await read.readStream('decide-b')).toHaveLength(1);
    const [a, b] = await read.readStreams(['decide-a', 'decide-b']);
    expect([a!.length, b!.length]).toEqual([1, 1]);
  });
});
