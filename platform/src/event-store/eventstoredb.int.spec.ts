import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EventStoreDBClient, jsonEvent } from '@eventstore/db-client';
import { formatPosition } from '@wagers/contracts/position';
import {
  eventStoreDbUnderTestName,
  startEventStoreDbUnderTest,
  type EventStoreDbUnderTest,
} from '@wagers/test-support/eventstoredb/under-test';
import { eventStoreContractSuite, headReaching } from './contract-suite.ts';
import { connectEventStoreDb } from './eventstoredb.ts';
import type { EventStore, RecordedEvent } from './port.ts';
import { followAll } from './recording-follower.ts';
import { sampleEvent, uniqueStreamId } from './sample-events.ts';

describe(`eventstoredb adapter on ${eventStoreDbUnderTestName}`, () => {
  // A 24.10 server offers BatchAppend and the client appends through it; older servers (and the
  // stand-in when told to) offer only Append, which the client falls back to.
  for (const appends of ['batch', 'plain'] as const)
    describe(`appending through ${appends === 'batch' ? 'BatchAppend' : 'Append'}`, () => {
      eventStoreContractSuite('eventstoredb', async () => {
        const server = await startEventStoreDbUnderTest({ appends });
        const store = connectEventStoreDb(server.url);
        return {
          store,
          async dispose() {
            await store.close();
            await server.stop();
          },
        };
      });
    });

  describe('system events', () => {
    let server: EventStoreDbUnderTest;
    let store: EventStore;
    let raw: EventStoreDBClient;
    beforeAll(async () => {
      server = await startEventStoreDbUnderTest();
      store = connectEventStoreDb(server.url);
      raw = EventStoreDBClient.connectionString(server.url);
    });
    afterAll(async () => {
      await raw?.dispose();
      await store?.close();
      await server?.stop();
    });

    it("leaves the server's own streams and event types out of reads and subscriptions", async () => {
      const ours = uniqueStreamId('beside_system');
      const head = await store.headPosition();
      const follower = followAll(store, { after: head });
      try {
        await raw.appendToStream(
          `$stats-${ours}`,
          jsonEvent({ type: '$statsCollected', data: {} }),
        );
        await raw.appendToStream(ours, jsonEvent({ type: '$metadata', data: {} }));
        const mine = sampleEvent('Ours');
        const { position } = await store.appendToStream(ours, [mine], { expectedRevision: 0n });
        const after = await raw.appendToStream(
          `$stats-${ours}`,
          jsonEvent({ type: '$statsCollected', data: {} }),
        );
        const systemHead = formatPosition(after.position!.commit, after.position!.prepare);

        await headReaching(store, position);
        await follower.until(() => follower.events.some((e) => e.id === mine.id), 'our event');
        const read = await store.readAll({ after: head, maxCount: 100 });

        expect(read.filter((e) => e.type.startsWith('$') || e.streamId.startsWith('$'))).toEqual(
          [],
        );
        expect(read.map((e) => e.id)).toContain(mine.id);
        expect(
          follower.events.filter((e) => e.type.startsWith('$') || e.streamId.startsWith('$')),
        ).toEqual([]);
        // Others may write to a shared server meanwhile; the head is never the system event.
        expect(await store.headPosition()).not.toBe(systemHead);
      } finally {
        await follower.stop();
      }
    });
  });

  describe('a subscriber that falls behind', () => {
    let server: EventStoreDbUnderTest;
    let store: EventStore;
    beforeAll(async () => {
      server = await startEventStoreDbUnderTest();
      store = connectEventStoreDb(server.url);
    });
    afterAll(async () => {
      await store?.close();
      await server?.stop();
    });

    it('still gets every event once, in order, with no error, when held past the server buffer', async () => {
      const streamId = uniqueStreamId('behind');
      const head = await store.headPosition();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let entered!: () => void;
      const inside = new Promise<void>((resolve) => (entered = resolve));
      const received: RecordedEvent[] = [];
      const caughtUpAt: (string | null)[] = [];
      const errors: unknown[] = [];
      const subscription = store.subscribeToAll({
        after: head,
        onEvents: async (page) => {
          received.push(...page.filter((e) => e.streamId === streamId));
          if (!page.some((e) => e.streamId === streamId)) return;
          entered();
          await held;
        },
        onCaughtUp: (position) => {
          caughtUpAt.push(position);
        },
        onError: (error) => errors.push(error),
      });
      const first = sampleEvent();
      await store.appendToStream(streamId, [first], { expectedRevision: 'no_stream' });
      await inside;

      const written = [first];
      let revision = 0n;
      let last = '';
      for (let i = 0; i < 15; i++) {
        const batch = Array.from({ length: 200 }, () => sampleEvent());
        written.push(...batch);
        ({ nextExpectedRevision: revision, position: last } = await store.appendToStream(
          streamId,
          batch,
          { expectedRevision: revision },
        ));
      }
      release();
      // Ends early if the subscription fails.
      await Promise.race([
        subscription.done,
        vi.waitFor(() => expect(caughtUpAt.at(-1)).toBe(last), { timeout: 20_000 }),
      ]);
      await subscription.stop();

      expect(errors).toEqual([]);
      expect(received.map((e) => e.id)).toEqual(written.map((e) => e.id));
      expect(received.map((e) => e.revision)).toEqual(written.map((_, i) => BigInt(i)));
    });
  });
});
