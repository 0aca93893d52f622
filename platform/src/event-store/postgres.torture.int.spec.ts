import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { comparePositions } from '@wagers/contracts/position';
import { createPool } from '../db.ts';
import { migrate, platformMigrations } from '../migrations.ts';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { sampleEvent as newEvent } from './sample-events.ts';
import { createPostgresEventStore, EVENTS_CHANNEL } from './postgres.ts';
import {
  ConcurrencyError,
  type EventStore,
  type ExpectedRevision,
  type RecordedEvent,
} from './port.ts';
import { followAll } from './recording-follower.ts';

const WRITERS = 16;
const APPENDS_PER_WRITER = 1000;
const SHARED_STREAMS = 8;
const RETRIES = 3;

interface WriterTally {
  succeeded: string[];
  refused: string[];
}

/**
 * One writer: every other append goes to its own stream, the rest to a shared stream at the
 * revision it last read, re-reading after each conflict.
 */
async function runWriter(
  store: EventStore,
  writer: number,
  abort: AbortSignal,
): Promise<WriterTally> {
  const tally: WriterTally = { succeeded: [], refused: [] };
  const own = `torture_own-${writer}`;
  let ownRevision: ExpectedRevision = 'no_stream';
  const known = new Map<string, bigint>();

  async function readRevision(streamId: string): Promise<ExpectedRevision> {
    const last = known.get(streamId);
    const newer = await store.readStream(streamId, {
      fromRevision: last === undefined ? 0n : last + 1n,
    });
    const latest = newer.at(-1)?.revision ?? last;
    if (latest !== undefined) known.set(streamId, latest);
    return latest ?? 'no_stream';
  }

  for (let i = 0; i < APPENDS_PER_WRITER && !abort.aborted; i++) {
    if (i % 2 === 0) {
      const events = Array.from({ length: 1 + (i % 3) }, () => newEvent('Own', { writer, i }));
      const result = await store.appendToStream(own, events, { expectedRevision: ownRevision });
      ownRevision = result.nextExpectedRevision;
      tally.succeeded.push(...events.map((e) => e.id));
      continue;
    }
    const streamId = `torture_shared-${(writer + i) % SHARED_STREAMS}`;
    for (let attempt = 0; ; attempt++) {
      const event = newEvent('Shared', { writer, i, attempt });
      try {
        const expectedRevision = await readRevision(streamId);
        const result = await store.appendToStream(streamId, [event], { expectedRevision });
        known.set(streamId, result.nextExpectedRevision);
        tally.succeeded.push(event.id);
        break;
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error;
        tally.refused.push(event.id);
        if (attempt === RETRIES) break;
      }
    }
  }
  return tally;
}

/** All writers at once; one failing stops the others, so none still writes when the next test runs. */
async function runWriters(store: EventStore): Promise<WriterTally[]> {
  const abort = new AbortController();
  const outcomes = await Promise.allSettled(
    Array.from({ length: WRITERS }, (_, writer) =>
      runWriter(store, writer, abort.signal).catch((error: unknown) => {
        abort.abort();
        throw error;
      }),
    ),
  );
  return outcomes.map((outcome) => {
    if (outcome.status === 'rejected') throw outcome.reason;
    return outcome.value;
  });
}

/** What went wrong in a delivery of `stored`, described by position so a failure can be traced. */
function deliveryFaults(delivered: RecordedEvent[], stored: Set<string>) {
  const firstSeenAt = new Map<string, number>();
  const repeated: string[] = [];
  const outOfOrder: string[] = [];
  delivered.forEach((event, i) => {
    const earlier = firstSeenAt.get(event.id);
    if (earlier === undefined) firstSeenAt.set(event.id, i);
    else repeated.push(`${event.id} at ${event.position}: deliveries ${earlier} and ${i}`);
    const previous = delivered[i - 1];
    if (previous && comparePositions(previous.position, event.position) !== -1) {
      outOfOrder.push(`delivery ${i}: ${event.position} after ${previous.position}`);
    }
  });
  const missing = [...stored].filter((id) => !firstSeenAt.has(id));
  return { repeated, missing, outOfOrder };
}

function expectRevisionOrderPerStream(events: RecordedEvent[]): void {
  const next = new Map<string, bigint>();
  for (const event of events) {
    const expected = next.get(event.streamId) ?? 0n;
    if (event.revision !== expected) {
      expect.fail(
        `${event.streamId} delivered revision ${event.revision} where ${expected} was due`,
      );
    }
    next.set(event.streamId, expected + 1n);
  }
}

describe('postgres event store under concurrent writers', () => {
  let database: TestDatabase;
  let writerPool: pg.Pool;
  let followerPool: pg.Pool;
  let writers: EventStore;
  let reader: EventStore;

  beforeAll(async () => {
    database = await createTestDatabase('wagers_torture');
    await migrate(database.url, [platformMigrations]);
    writerPool = createPool(database.url, WRITERS);
    // The follower reads through a pool of its own, so the test can see when it has looked.
    followerPool = createPool(database.url, 2);
    writers = createPostgresEventStore(writerPool, { connectionString: database.url });
    reader = createPostgresEventStore(followerPool, { connectionString: database.url });
  }, 120_000);

  afterAll(async () => {
    await writers.close();
    await reader.close();
    await writerPool.end();
    await followerPool.end();
    await database.drop();
  }, 120_000);

  it(`stores each successful append exactly once and delivers it once, in order, to every follower (${WRITERS} writers x ${APPENDS_PER_WRITER} appends)`, async () => {
    const head = await reader.headPosition();
    // Followers of one store share its reads of the log's end: one with the usual pages, one
    // with tiny pages that keeps falling behind, and one that starts from the log's first event
    // while the others are already following.
    const followers = [
      followAll(reader, { after: head }),
      followAll(reader, { after: head, batchSize: 7 }),
    ];
    try {
      const writing = runWriters(writers);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const fromStart = followAll(reader, { after: null, batchSize: 300 });
      followers.push(fromStart);
      const tallies = await writing;
      const stored = await writerPool.query<{
        event_id: string;
        stream_id: string;
        stream_revision: string;
      }>(
        'SELECT event_id, stream_id, stream_revision FROM es_events ORDER BY stream_id, stream_revision',
      );
      const storedSet = new Set(stored.rows.map((row) => row.event_id));
      const ours = (follower: (typeof followers)[number]) =>
        follower.events.filter((event) => storedSet.has(event.id));
      for (const follower of followers) {
        await follower.until(
          () => ours(follower).length >= stored.rowCount!,
          `all ${stored.rowCount} stored events`,
          60_000,
        );
      }

      const succeeded = tallies.flatMap((t) => t.succeeded);
      const refused = tallies.flatMap((t) => t.refused);
      const storedIds = stored.rows.map((row) => row.event_id);
      expect(new Set(succeeded).size).toBe(succeeded.length);
      expect(storedIds).toHaveLength(succeeded.length);
      expect(new Set(storedIds)).toEqual(new Set(succeeded));
      expect(refused.filter((id) => storedSet.has(id))).toEqual([]);

      for (const follower of followers) {
        const delivered = follower.events;
        // The follower from the start also gets what earlier tests stored, before ours.
        expect(
          deliveryFaults(follower === fromStart ? ours(follower) : delivered, storedSet),
        ).toEqual({
          repeated: [],
          missing: [],
          outOfOrder: [],
        });
        expectRevisionOrderPerStream(ours(follower));
      }
      console.info(
        `torture: ${succeeded.length} events stored, ${refused.length} appends refused, ` +
          `delivered in ${followers.map((f) => f.pageSizes.length).join(', ')} pages`,
      );
    } finally {
      await Promise.all(followers.map((follower) => follower.stop()));
    }
  }, 600_000);

  it('holds delivery at an open write transaction, then delivers it and all later events in log order', async () => {
    const held = `torture_held-${Date.now()}`;
    const later = `torture_later-${Date.now()}`;
    const head = await reader.headPosition();
    const ours = (e: RecordedEvent) => e.streamId === held || e.streamId === later;
    const follower = followAll(reader, { after: head, keep: ours });
    const looks = countCheckouts(followerPool);
    const open = new pg.Client({ connectionString: database.url });
    await open.connect();
    try {
      await follower.until(() => follower.caughtUp.length > 0, 'the follower to catch up');
      await open.query('BEGIN');
      // The transaction id is taken now, before the later appends, but its row is written after them.
      await open.query('SELECT pg_current_xact_id()');
      const early = [newEvent('Later'), newEvent('Later')];
      const firstLater = await writers.appendToStream(later, [early[0]!], {
        expectedRevision: 'no_stream',
      });
      await writers.appendToStream(later, [early[1]!], { expectedRevision: 0n });
      const heldEvent = newEvent('Held');
      await open.query(
        `INSERT INTO es_events (stream_id, stream_revision, event_id, type, data, metadata)
         VALUES ($1, 0, $2, $3, $4, $5)`,
        [
          held,
          heldEvent.id,
          heldEvent.type,
          JSON.stringify(heldEvent.data),
          JSON.stringify(heldEvent.metadata),
        ],
      );
      await open.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, held]);
      const last = newEvent('Later');
      await writers.appendToStream(later, [last], { expectedRevision: 1n });

      // Let the follower look at the log several times after the later events committed.
      const seen = looks.count;
      await follower.until(() => looks.count >= seen + 6, 'the follower to look at the log again');
      expect(follower.events).toEqual([]);
      const headNow = await reader.headPosition();
      expect(headNow ? comparePositions(headNow, firstLater.position) : -1).toBe(-1);
      expect((await reader.readAll({ after: head, maxCount: 10_000 })).filter(ours)).toEqual([]);

      await open.query('COMMIT');
      await follower.until(() => follower.events.length >= 4, 'the held and later events');

      expect(follower.events.map((e) => e.id)).toEqual([
        heldEvent.id,
        early[0]!.id,
        early[1]!.id,
        last.id,
      ]);
      const [heldRecorded, ...laterRecorded] = follower.events;
      // Log order is not insertion order: the held event was inserted last but its transaction began first.
      const positionOf = async (id: string) =>
        (
          await writerPool.query<{ p: string }>(
            'SELECT global_position AS p FROM es_events WHERE event_id = $1',
            [id],
          )
        ).rows[0]!.p;
      const heldInsertedAt = BigInt(await positionOf(heldRecorded!.id));
      expect(heldInsertedAt > BigInt(await positionOf(laterRecorded[1]!.id))).toBe(true);
    } finally {
      looks.stop();
      await open.end();
      await follower.stop();
    }
  }, 120_000);
});

describe('postgres event store followers and transactions that are not appends', () => {
  let database: TestDatabase;
  let other: TestDatabase;
  let pool: pg.Pool;
  let followerPool: pg.Pool;
  let writer: EventStore;
  let reader: EventStore;

  beforeAll(async () => {
    database = await createTestDatabase('wagers_horizon');
    other = await createTestDatabase('wagers_elsewhere');
    await migrate(database.url, [platformMigrations]);
    pool = createPool(database.url, 4);
    followerPool = createPool(database.url, 2);
    writer = createPostgresEventStore(pool, { connectionString: database.url });
    // No safety-net poll within these tests: every look the follower takes is one it chose.
    reader = createPostgresEventStore(followerPool, {
      connectionString: database.url,
      pollIntervalMs: 60_000,
    });
  }, 120_000);

  afterAll(async () => {
    await writer.close();
    await reader.close();
    await pool.end();
    await followerPool.end();
    await database.drop();
    await other.drop();
  }, 120_000);

  /** A transaction that has taken its id and stays open until `end()`. */
  async function openTransaction(url: string) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('BEGIN');
    await client.query('SELECT pg_current_xact_id()');
    return {
      async end() {
        await client.query('COMMIT');
        await client.end();
      },
    };
  }

  it('delivers events while a transaction in another database of the server stays open', async () => {
    const elsewhere = await openTransaction(other.url);
    try {
      const head = await reader.headPosition();
      const follower = followAll(reader, { after: head });
      try {
        const written = await writer.appendToStream(`elsewhere-${Date.now()}`, [newEvent()], {
          expectedRevision: 'no_stream',
        });
        await follower.until(() => follower.events.length === 1, 'the new event');
        expect(follower.events[0]!.position).toBe(written.position);
        expect(await reader.headPosition()).toBe(written.position);
      } finally {
        await follower.stop();
      }
    } finally {
      await elsewhere.end();
    }
  });

  it('looks less and less often while an open transaction here hides events, then delivers them', async () => {
    const follower = followAll(reader, { after: await reader.headPosition() });
    const looks = countCheckouts(followerPool);
    try {
      await follower.until(() => follower.caughtUp.length > 0, 'the follower to catch up');
      const open = await openTransaction(database.url);
      const hidden = newEvent('Hidden');
      await writer.appendToStream(`hidden-${Date.now()}`, [hidden], {
        expectedRevision: 'no_stream',
      });
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const after3s = looks.count;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const inNext1500ms = looks.count - after3s;
      expect(follower.events).toEqual([]);
      // Pauses grow from 5 ms, doubling: by the third second they are over a second long.
      expect(inNext1500ms).toBeLessThanOrEqual(1);

      await open.end();
      await follower.until(() => follower.events.length === 1, 'the hidden event', 30_000);
      expect(follower.events[0]!.id).toBe(hidden.id);
    } finally {
      looks.stop();
      await follower.stop();
    }
  }, 120_000);
});

/** Counts the connections a pool hands out: each read the follower makes is one. */
function countCheckouts(pool: pg.Pool): { readonly count: number; stop(): void } {
  let count = 0;
  const onAcquire = () => {
    count += 1;
  };
  pool.on('acquire', onAcquire);
  return {
    get count() {
      return count;
    },
    stop: () => pool.off('acquire', onAcquire),
  };
}
