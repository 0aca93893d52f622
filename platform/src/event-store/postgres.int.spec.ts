import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { createPool } from '../db.ts';
import { migrate, platformMigrations } from '../migrations.ts';
import { createTestDatabase } from '@wagers/test-support/database';
import { genericPlanScans } from '@wagers/test-support/plans';
import {
  eventStoreContractSuite,
  headReaching,
  type EventStoreUnderTest,
} from './contract-suite.ts';
import { sampleEvent as newEvent, uniqueStreamId } from './sample-events.ts';
import {
  createPostgresEventStore,
  FOLLOW_STATEMENTS,
  type PostgresEventStoreOptions,
} from './postgres.ts';
import type { EventStore } from './port.ts';
import { followAll } from './recording-follower.ts';

async function freshPostgresStore(
  options: Omit<PostgresEventStoreOptions, 'connectionString'> = {},
): Promise<EventStoreUnderTest & { pool: pg.Pool }> {
  const database = await createTestDatabase('wagers_es');
  await migrate(database.url, [platformMigrations]);
  const pool = createPool(database.url, 8);
  const store = createPostgresEventStore(pool, { ...options, connectionString: database.url });
  return {
    store,
    pool,
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
  }, 120_000);
  afterAll(() => underTest.dispose(), 60_000);

  it('has no head and nothing to read while the log is empty', async () => {
    expect(await store.headPosition()).toBeNull();
    expect(await store.readAll({ after: null, maxCount: 10 })).toEqual([]);
  });

  it('reports the position of the last event written, which becomes the head', async () => {
    const streamId = uniqueStreamId('pg_position');
    const result = await store.appendToStream(streamId, [newEvent(), newEvent()], {
      expectedRevision: 'no_stream',
    });

    const stored = await store.readStream(streamId);

    expect(stored[1]!.position).toBe(result.position);
    expect(await headReaching(store, result.position)).toBe(result.position);
  });
});

describe('postgres event store statements a command sends on every request', () => {
  it('appends and reads streams with statements PostgreSQL plans once for any parameters', async () => {
    const database = await createTestDatabase('wagers_es_plans');
    await migrate(database.url, [platformMigrations]);
    // One connection, so every statement below is prepared and run on it.
    const pool = createPool(database.url, 1);
    const store = createPostgresEventStore(pool, { connectionString: database.url });
    try {
      for (let i = 0; i < 12; i++) {
        const streamId = uniqueStreamId('pg_plans');
        await store.appendToStream(streamId, [newEvent()], { expectedRevision: 'no_stream' });
        await store.appendToStream(streamId, [newEvent(), newEvent()], { expectedRevision: 0n });
        await store.appendToStream(streamId, [newEvent()], { expectedRevision: 'any' });
        expect(await store.readStream(streamId)).toHaveLength(4);
        expect((await store.readStreams([streamId, uniqueStreamId('none')]))[0]).toHaveLength(4);
      }
      const prepared = await pool.query<{ name: string; generic: number; custom: number }>(
        `SELECT name, generic_plans::int AS generic, custom_plans::int AS custom
           FROM pg_prepared_statements WHERE name LIKE 'es_%' ORDER BY name`,
      );
      // PostgreSQL tries five plans made for the parameters given before it settles on one.
      expect(prepared.rows).toEqual(
        [
          'es_append_any',
          'es_append_exact',
          'es_append_new',
          'es_read_stream',
          'es_read_streams',
        ].map((name) => ({ name, generic: 7, custom: 5 })),
      );
    } finally {
      await store.close();
      await pool.end();
      await database.drop();
    }
  }, 120_000);
});

describe('postgres event store reading the end of a long log', () => {
  let underTest: EventStoreUnderTest & { pool: pg.Pool };
  beforeAll(async () => {
    underTest = await freshPostgresStore();
    await underTest.pool.query(
      `INSERT INTO es_events (stream_id, stream_revision, event_id, type, data, metadata)
       SELECT 'long-' || g, 0, gen_random_uuid(), 'Filler', '{"n": 1}', '{}'
       FROM generate_series(1, 20000) AS g`,
    );
    await underTest.pool.query('ANALYZE es_events');
  }, 120_000);
  afterAll(() => underTest.dispose(), 60_000);

  // The statements are prepared, and PostgreSQL soon plans them once for any parameters: such a
  // plan must still go straight to the end of the log, or every follower's read scans all of it.
  it.each(FOLLOW_STATEMENTS.map((statement) => [statement.name, statement.text]))(
    '%s reads by index, whatever the parameters',
    async (_name, text) => {
      const client = await underTest.pool.connect();
      try {
        const head = await client.query<{ tx: string; position: string }>(
          `SELECT transaction_id::text AS tx, global_position::text AS position FROM es_events
           ORDER BY global_position DESC LIMIT 1`,
        );
        const { tx, position } = head.rows[0]!;
        const scans = await genericPlanScans(
          client,
          text,
          'text, bigint, integer',
          `'${tx}', ${position}, 500`,
        );
        expect(scans('es_events').length).toBeGreaterThan(0);
        expect(scans('es_events')).not.toContain('Seq Scan');
        const page = await client.query<{ hidden: boolean; global_position: string | null }>(text, [
          tx,
          (BigInt(position) - 3n).toString(),
          500,
        ]);
        expect(page.rows.map((row) => row.global_position)).toEqual(
          [2n, 1n, 0n].map((back) => (BigInt(position) - back).toString()),
        );
        expect(page.rows.every((row) => !row.hidden)).toBe(true);
      } finally {
        client.release();
      }
    },
  );
});

describe('postgres event store log order', () => {
  let underTest: EventStoreUnderTest & { pool: pg.Pool };
  beforeAll(async () => {
    underTest = await freshPostgresStore();
  }, 120_000);
  afterAll(() => underTest.dispose(), 60_000);

  it('orders and pages by transaction id as a number, also where ids gain a digit', async () => {
    // Transaction ids written as they would be by transactions that committed out of order,
    // straddling 10 and 100 where text order and number order disagree.
    const written = [100n, 9n, 99n, 10n, 101n, 11n];
    for (const [i, transactionId] of written.entries()) {
      const event = newEvent();
      await underTest.pool.query(
        `INSERT INTO es_events (transaction_id, stream_id, stream_revision, event_id, type, data, metadata)
         VALUES ($1::text::xid8, $2, 0, $3, $4, $5, $6)`,
        [
          transactionId.toString(),
          `order-${i}`,
          event.id,
          event.type,
          '{}',
          JSON.stringify(event.metadata),
        ],
      );
    }
    const logOrder = ['9-2', '10-4', '11-6', '99-3', '100-1', '101-5'];

    for (const pageSize of [1, 2, 4, 10]) {
      const positions: string[] = [];
      let after: string | null = null;
      for (;;) {
        const page = await underTest.store.readAll({ after, maxCount: pageSize });
        if (page.length === 0) break;
        positions.push(...page.map((e) => e.position));
        after = page[page.length - 1]!.position;
      }
      expect(positions, `pages of ${pageSize}`).toEqual(logOrder);
    }
    expect(await underTest.store.headPosition()).toBe('101-5');
  });
});

describe('postgres event store followers sharing the end of the log', () => {
  let underTest: EventStoreUnderTest;
  let store: EventStore;
  beforeAll(async () => {
    // Reads of the log's end at most every 300 ms, and no safety-net look within the test: a
    // follower that is not woken for an event never gets it.
    underTest = await freshPostgresStore({ followIntervalMs: 300, pollIntervalMs: 60_000 });
    store = underTest.store;
  }, 120_000);
  afterAll(() => underTest.dispose(), 60_000);

  it('a follower busy with a page while the log moves on still gets the newest event', async () => {
    const after = await store.headPosition();
    const append = (type: string) =>
      store.appendToStream(uniqueStreamId(type), [newEvent(type)], {
        expectedRevision: 'no_stream',
      });
    const quick = followAll(store, { after });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slowSeen: string[] = [];
    const slow = store.subscribeToAll({
      after,
      onEvents: async (events) => {
        slowSeen.push(...events.map((event) => event.type));
        if (slowSeen.length === 1) await held;
      },
    });
    try {
      await append('First');
      await quick.until(() => quick.events.length === 1, 'the first event');
      // The slow follower is still applying the first event as two more are appended: the quick
      // one reads the second at once and asks for the third, which is read after a pause.
      await append('Second');
      await quick.until(() => quick.events.length === 2, 'the second event');
      await append('Third');
      await new Promise((resolve) => setTimeout(resolve, 20));
      release();

      await quick.until(() => quick.events.length === 3, 'the third event');
      await expect.poll(() => slowSeen, { timeout: 5_000 }).toEqual(['First', 'Second', 'Third']);
    } finally {
      release();
      await quick.stop();
      await slow.stop();
    }
  }, 60_000);
});
