import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { createPool } from '../db.ts';
import { handleCommand, schemaReader, type Decider } from '../decider.ts';
import { migrate, platformMigrations } from '../migrations.ts';
import { anchorLegacyStreams } from './chain-anchors.ts';
import { createDataKeys } from './data-keys.ts';
import { headReaching } from './contract-suite.ts';
import { verifyLog, verifyStream } from './chain-verifier.ts';
import { eventHash } from './event-hash.ts';
import { withHashChain } from './hash-chain.ts';
import { destroyDataKeys, withPersonalData } from './personal-data.ts';
import type { EventStore } from './port.ts';
import { createPostgresEventStore } from './postgres.ts';
import { sampleEvent, uniqueStreamId } from './sample-events.ts';
import { userSubject } from './sealed-fields.ts';

let database: TestDatabase;
let pool: pg.Pool;
let plain: EventStore;
let store: EventStore;

beforeAll(async () => {
  database = await createTestDatabase('wagers_chain');
  await migrate(database.url, [platformMigrations]);
  pool = createPool(database.url, 8);
  plain = createPostgresEventStore(pool, { connectionString: database.url });
  store = withHashChain(plain);
}, 120_000);
afterAll(async () => {
  await store.close();
  await pool.end();
  await database.drop();
}, 120_000);

/** Anchoring and whole-log checks read the global log: wait until it shows the last append. */
async function logShows(append: Promise<{ position: string }>): Promise<void> {
  await headReaching(store, (await append).position);
}

const counted = (count: number) =>
  Array.from({ length: count }, (_, i) => sampleEvent('Counted', { i, note: `event ${i}` }));

/** Edits one stored event behind the store's back, as someone with database access could. */
async function tamper(streamId: string, revision: number): Promise<void> {
  await pool.query(
    `UPDATE es_events SET data = jsonb_set(data, '{note}', '"edited"')
      WHERE stream_id = $1 AND stream_revision = $2`,
    [streamId, revision],
  );
}

type Tally = { count: number };
const tallyDecider: Decider<Tally, { type: 'Add' }, { type: 'Added'; data: { n: number } }> = {
  initialState: () => ({ count: 0 }),
  decide: (_command, state) => [{ type: 'Added', data: { n: state.count + 1 } }],
  evolve: (state) => ({ count: state.count + 1 }),
};
const readTally = schemaReader<{ type: 'Added'; data: { n: number } }>({
  Added: { parse: (data) => data as { n: number } },
});

describe('hash-chained event store', () => {
  it('links each appended event to the one before it in its stream', async () => {
    const streamId = uniqueStreamId('chain');
    await store.appendToStream(streamId, counted(2), { expectedRevision: 'no_stream' });
    await store.appendToStream(streamId, counted(1), { expectedRevision: 1n });
    await store.appendToStream(streamId, counted(2), { expectedRevision: 'any' });

    const stored = await store.readStream(streamId);

    expect(stored).toHaveLength(5);
    let previous: string | null = null;
    for (const event of stored) {
      expect(event.metadata.hash).toBe(eventHash(event, previous));
      previous = event.metadata.hash!;
    }
    expect((await verifyStream(store, pool, streamId)).broken).toEqual([]);
  });

  it('keeps the chain whole when several writers append with revision any at once', async () => {
    const streamId = uniqueStreamId('racing');
    await Promise.all(
      Array.from({ length: 6 }, () =>
        store.appendToStream(streamId, counted(2), { expectedRevision: 'any' }),
      ),
    );

    const report = await verifyStream(store, pool, streamId);

    expect(report.events).toBe(12);
    expect(report.broken).toEqual([]);
  });

  it('chains the commands a decider handles, with the hash it read', async () => {
    const streamId = uniqueStreamId('decided');
    const context = {
      actorId: null,
      correlationId: 'c',
      now: new Date(),
      newId: () => crypto.randomUUID(),
    };
    for (let i = 0; i < 3; i++) {
      await handleCommand(store, streamId, tallyDecider, readTally, { type: 'Add' }, context);
    }

    const report = await verifyStream(store, pool, streamId);

    expect(report.events).toBe(3);
    expect(report.broken).toEqual([]);
  });

  it('verifies data whose keys jsonb stores in another order', async () => {
    const streamId = uniqueStreamId('keys');
    const data = { zebra: 1, a: { longer_key: [1, { y: 2, b: 'é' }], k: null }, mm: 'x' };
    await store.appendToStream(streamId, [sampleEvent('Keyed', data)], {
      expectedRevision: 'no_stream',
    });
    const [stored] = await store.readStream(streamId);
    expect(Object.keys(stored!.data as object)).not.toEqual(Object.keys(data));

    expect((await verifyStream(store, pool, streamId)).broken).toEqual([]);
  });

  it('finds exactly the one event edited in SQL, and only in its stream', async () => {
    const [edited, untouched] = [uniqueStreamId('edited'), uniqueStreamId('untouched')];
    await store.appendToStream(edited, counted(5), { expectedRevision: 'no_stream' });
    await logShows(store.appendToStream(untouched, counted(3), { expectedRevision: 'no_stream' }));
    const target = (await store.readStream(edited))[2]!;

    await tamper(edited, 2);

    const report = await verifyStream(store, pool, edited);
    expect(report.broken).toEqual([
      expect.objectContaining({
        streamId: edited,
        revision: 2n,
        eventId: target.id,
        reason: 'hash_mismatch',
        found: target.metadata.hash,
      }),
    ]);
    const whole = await verifyLog(store, pool);
    expect(whole.broken.map((link) => [link.streamId, link.revision])).toEqual([[edited, 2n]]);
    expect((await verifyStream(store, pool, untouched)).broken).toEqual([]);
  });
  it('reports metadata edited into null as a broken hash, and goes on to the other streams', async () => {
    const [edited, after] = [uniqueStreamId('nullmeta'), uniqueStreamId('aftermeta')];
    await store.appendToStream(edited, counted(3), { expectedRevision: 'no_stream' });
    await logShows(store.appendToStream(after, counted(2), { expectedRevision: 'no_stream' }));
    const target = (await store.readStream(edited))[1]!;

    await pool.query(
      `UPDATE es_events SET metadata = 'null'::jsonb WHERE stream_id = $1 AND stream_revision = 1`,
      [edited],
    );

    const broken = { streamId: edited, revision: 1n, eventId: target.id, reason: 'hash_mismatch' };
    expect((await verifyStream(store, pool, edited)).broken).toEqual([
      expect.objectContaining({ ...broken, found: null }),
    ]);
    const whole = await verifyLog(store, pool);
    expect(whole.broken).toContainEqual(expect.objectContaining(broken));
    expect(whole.broken.map((link) => link.streamId)).not.toContain(after);
  });

  it('names an event deleted in SQL as missing, not as a broken hash after it', async () => {
    const streamId = uniqueStreamId('gap');
    await store.appendToStream(streamId, counted(4), { expectedRevision: 'no_stream' });
    const after = (await store.readStream(streamId))[2]!;

    await pool.query('DELETE FROM es_events WHERE stream_id = $1 AND stream_revision = 1', [
      streamId,
    ]);

    expect((await verifyStream(store, pool, streamId)).broken).toEqual([
      expect.objectContaining({
        revision: 2n,
        eventId: after.id,
        reason: 'missing_event',
        expected: 'revision 1',
        found: 'revision 2',
      }),
    ]);
  });
});

describe('streams written before hash chains', () => {
  it('are flagged until anchored, verify once anchored, and new events chain onto them', async () => {
    const streamId = uniqueStreamId('legacy');
    await logShows(plain.appendToStream(streamId, counted(3), { expectedRevision: 'no_stream' }));
    const before = await verifyStream(store, pool, streamId);
    expect(before.broken).toEqual([
      expect.objectContaining({ revision: 0n, reason: 'missing_hash' }),
    ]);

    await anchorLegacyStreams(store, pool);
    await store.appendToStream(streamId, counted(1), { expectedRevision: 2n });
    await store.appendToStream(streamId, counted(1), { expectedRevision: 'any' });

    const stored = await store.readStream(streamId);
    expect(stored.map((event) => event.metadata.hash === undefined)).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect((await verifyStream(store, pool, streamId)).broken).toEqual([]);
    expect(await anchorLegacyStreams(store, pool)).toBe(0);
  });

  it('anchor a stream that got hashed events before the step ran, and catch an edit before the anchor', async () => {
    const streamId = uniqueStreamId('late');
    await plain.appendToStream(streamId, counted(2), { expectedRevision: 'no_stream' });
    await logShows(store.appendToStream(streamId, counted(2), { expectedRevision: 1n }));
    await anchorLegacyStreams(store, pool);
    expect((await verifyStream(store, pool, streamId)).broken).toEqual([]);

    await tamper(streamId, 0);

    expect((await verifyStream(store, pool, streamId)).broken).toEqual([
      expect.objectContaining({ revision: 1n, reason: 'anchor_mismatch' }),
    ]);
  });

  it('report the first missing revision when the stream no longer reaches its anchor', async () => {
    const [truncated, emptied] = [uniqueStreamId('truncated'), uniqueStreamId('emptied')];
    await plain.appendToStream(truncated, counted(6), { expectedRevision: 'no_stream' });
    await logShows(plain.appendToStream(emptied, counted(2), { expectedRevision: 'no_stream' }));
    await anchorLegacyStreams(store, pool);
    expect((await verifyStream(store, pool, truncated)).broken).toEqual([]);

    await pool.query('DELETE FROM es_events WHERE stream_id = $1 AND stream_revision >= 4', [
      truncated,
    ]);
    await pool.query('DELETE FROM es_events WHERE stream_id = $1', [emptied]);

    const missing = (revision: bigint) => ({
      revision,
      eventId: null,
      reason: 'missing_event',
      expected: `revision ${revision}`,
      found: null,
    });
    expect((await verifyStream(store, pool, truncated)).broken).toEqual([
      { ...missing(4n), streamId: truncated },
    ]);
    const gone = await verifyStream(store, pool, emptied);
    expect(gone).toEqual({
      streams: 1,
      events: 0,
      broken: [{ ...missing(0n), streamId: emptied }],
    });
    const whole = await verifyLog(store, pool);
    expect(whole.broken.filter((link) => [truncated, emptied].includes(link.streamId))).toEqual([
      { ...missing(4n), streamId: truncated },
      { ...missing(0n), streamId: emptied },
    ]);
  });
});

describe('a command on a stream whose last event predates hash chains and names an erased person', () => {
  it('chains onto that event as stored, so the log still verifies', async () => {
    const keys = createDataKeys(pool, database.url);
    const sealing = withPersonalData(store, keys);
    try {
      const userId = crypto.randomUUID();
      const streamId = `user-${userId}`;
      const registered = sampleEvent('UserRegistered', {
        userId,
        email: `${userId}@example.com`,
        firstName: 'Ann',
        lastName: 'Lee',
      });
      await logShows(
        plain.appendToStream(streamId, [registered], { expectedRevision: 'no_stream' }),
      );
      await anchorLegacyStreams(store, pool);
      await destroyDataKeys(sealing, [userSubject(userId)]);
      const [read] = await sealing.readStream(streamId);
      expect(read!.data).toMatchObject({ firstName: null, lastName: null });

      const context = {
        actorId: null,
        correlationId: 'c',
        now: new Date(),
        newId: () => crypto.randomUUID(),
      };
      await handleCommand(sealing, streamId, tallyDecider, readTally, { type: 'Add' }, context);

      expect(await verifyStream(store, pool, streamId)).toMatchObject({ events: 2, broken: [] });
    } finally {
      await keys.close();
    }
  });
});
