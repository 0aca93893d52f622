import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from './db.ts';
import { handleCommand, schemaReader, type CommandContext, type Decider } from './decider.ts';
import { conflict } from './errors.ts';
import { createPostgresEventStore } from './event-store/postgres.ts';
import type { EventStore } from './event-store/port.ts';
import { migrate, platformMigrations } from './migrations.ts';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { deciderSpec } from '@wagers/test-support/decider-spec';
import { z } from 'zod';

type Event = { type: 'SeatTaken'; data: { by: string } };
type Command = { type: 'TakeSeat'; data: { by: string } };
type State = { taken: string[]; capacity: number };

/** A room with three seats: enough rules to show retries decide on fresh state. */
const room: Decider<State, Command, Event> = {
  initialState: () => ({ taken: [], capacity: 3 }),
  decide: (command, state) => {
    if (state.taken.includes(command.data.by)) return [];
    if (state.taken.length >= state.capacity) throw conflict('The room is full');
    return [{ type: 'SeatTaken', data: { by: command.data.by } }];
  },
  evolve: (state, event) => ({ ...state, taken: [...state.taken, event.data.by] }),
};
const readEvent = schemaReader<Event>({ SeatTaken: z.object({ by: z.string() }) });

const context = (): CommandContext => ({
  actorId: null,
  correlationId: randomUUID(),
  now: new Date('2026-01-01T00:00:00Z'),
  newId: randomUUID,
});

describe('decider kit', () => {
  it('reads given/when/then', () => {
    deciderSpec(room)
      .given([])
      .when({ type: 'TakeSeat', data: { by: 'ann' } })
      .then([{ type: 'SeatTaken', data: { by: 'ann' } }]);
    deciderSpec(room)
      .given([{ type: 'SeatTaken', data: { by: 'ann' } }])
      .when({ type: 'TakeSeat', data: { by: 'ann' } })
      .thenNothing();
    deciderSpec(room)
      .given(['a', 'b', 'c'].map((by) => ({ type: 'SeatTaken' as const, data: { by } })))
      .when({ type: 'TakeSeat', data: { by: 'dan' } })
      .thenFails('conflict', /full/);
  });

  describe('handleCommand against the real store', () => {
    let db: TestDatabase;
    let pool: Pool;
    let store: EventStore;
    beforeAll(async () => {
      db = await createTestDatabase();
      await migrate(db.url, [platformMigrations]);
      pool = createPool(db.url);
      store = createPostgresEventStore(pool, { connectionString: db.url });
    });
    afterAll(async () => {
      await store.close();
      await pool.end();
      await db.drop();
    });

    it('retries a lost race on fresh state, so concurrent commands never break a rule', async () => {
      const stream = `room-${randomUUID()}`;
      const people = ['ann', 'ben', 'cat', 'dan', 'eve', 'fay'];
      const outcomes = await Promise.allSettled(
        people.map((by) =>
          handleCommand(
            store,
            stream,
            room,
            readEvent,
            { type: 'TakeSeat', data: { by } },
            context(),
            { maxAttempts: 10 },
          ),
        ),
      );
      const stored = await store.readStream(stream);
      expect(stored).toHaveLength(3);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') expect(String(outcome.reason)).toMatch(/full/);
      }
      expect(stored.map((e) => e.metadata.occurredAt)).toEqual(
        Array(3).fill('2026-01-01T00:00:00.000Z'),
      );
    });

    it('appends nothing and reports no position when the decision is a no-op', async () => {
      const stream = `room-${randomUUID()}`;
      const first = await handleCommand(
        store,
        stream,
        room,
        readEvent,
        { type: 'TakeSeat', data: { by: 'ann' } },
        context(),
      );
      expect(first.position).not.toBeNull();
      const again = await handleCommand(
        store,
        stream,
        room,
        readEvent,
        { type: 'TakeSeat', data: { by: 'ann' } },
        context(),
      );
      expect(again.position).toBeNull();
      expect(await store.readStream(stream)).toHaveLength(1);
    });

    it('decides first on the stream the caller read, and after a lost race on a fresh read', async () => {
      const stream = `room-${randomUUID()}`;
      const take = (by: string) => ({ type: 'TakeSeat' as const, data: { by } });
      await handleCommand(store, stream, room, readEvent, take('ann'), context());
      const read = await store.readStream(stream);
      let reads = 0;
      const counting: EventStore = {
        ...store,
        appendToStream: (...args) => store.appendToStream(...args),
        readStream: (...args) => {
          reads += 1;
          return store.readStream(...args);
        },
      };
      await handleCommand(counting, stream, room, readEvent, take('ben'), context(), { read });
      expect(reads).toBe(0);

      // Read before Cat took the last seat: the append loses, and the retry sees the room full.
      const stale = await store.readStream(stream);
      await handleCommand(store, stream, room, readEvent, take('cat'), context());
      const late = handleCommand(counting, stream, room, readEvent, take('dan'), context(), {
        read: stale,
      });
      await expect(late).rejects.toThrow(/full/);
      expect(reads).toBe(1);
      expect((await store.readStream(stream)).map((event) => event.data)).toEqual([
        { by: 'ann' },
        { by: 'ben' },
        { by: 'cat' },
      ]);
    });
  });
});
