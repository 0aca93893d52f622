import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  START,
  StreamNotFoundError,
  TimeoutError,
  WrongExpectedVersionError,
  eventTypeFilter,
  type AllStreamResolvedEvent,
  type Position,
} from '@eventstore/db-client';
import {
  eventStoreDbUnderTestName,
  startEventStoreDbUnderTest,
  type EventStoreDbUnderTest,
} from './under-test.ts';

/**
 * What EventStoreDB's documentation and client library say a server does, driven through the
 * client library itself. Against the stand-in by default; set EVENTSTORE_URL to check the same
 * expectations against a real server.
 */

const stream = (label: string) => `${label}-${randomUUID().replaceAll('-', '')}`;
const event = (type = 'Happened', data: Record<string, unknown> = { n: 1 }) =>
  jsonEvent({ id: randomUUID(), type, data, metadata: { by: 'test' } });

async function collect<T>(read: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of read) items.push(item);
  return items;
}

const before = (a: Position, b: Position) =>
  a.commit < b.commit || (a.commit === b.commit && a.prepare < b.prepare);

describe(`EventStoreDB protocol on ${eventStoreDbUnderTestName}`, () => {
  let server: EventStoreDbUnderTest;
  let client: EventStoreDBClient;
  beforeAll(async () => {
    server = await startEventStoreDbUnderTest();
    client = EventStoreDBClient.connectionString(server.url);
  });
  afterAll(async () => {
    await client?.dispose();
    await server?.stop();
  });

  it('stores what was appended and reads it back from the stream', async () => {
    const name = stream('roundtrip');
    const sent = [event('Opened', { title: 'Ünïcödé' }), event('Closed', {})];

    const result = await client.appendToStream(name, sent, { expectedRevision: NO_STREAM });
    const read = await collect(
      client.readStream(name, { direction: FORWARDS, fromRevision: START }),
    );

    expect(result.nextExpectedRevision).toBe(1n);
    expect(result.position).toBeDefined();
    expect(
      read.map(({ event: e }) => ({
        id: e?.id,
        type: e?.type,
        data: e?.data,
        metadata: e?.metadata,
      })),
    ).toEqual(sent.map(({ id, type, data, metadata }) => ({ id, type, data, metadata })));
    expect(read.map(({ event: e }) => e?.revision)).toEqual([0n, 1n]);
    for (const { event: e } of read)
      expect(Math.abs(e!.created.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('refuses a wrong expected revision with the stream and revisions named', async () => {
    const name = stream('expected');
    await client.appendToStream(name, event(), { expectedRevision: NO_STREAM });

    const behind = await client
      .appendToStream(name, event(), { expectedRevision: 5n })
      .catch((error: unknown) => error);
    const exists = await client
      .appendToStream(name, event(), { expectedRevision: NO_STREAM })
      .catch((error: unknown) => error);
    const missing = await client
      .appendToStream(stream('missing'), event(), { expectedRevision: 0n })
      .catch((error: unknown) => error);

    expect(behind).toBeInstanceOf(WrongExpectedVersionError);
    expect(behind).toMatchObject({ streamName: name, expectedVersion: 5n, actualVersion: 0n });
    expect(exists).toBeInstanceOf(WrongExpectedVersionError);
    expect(exists).toMatchObject({ actualVersion: 0n });
    expect(missing).toMatchObject({ expectedVersion: 0n, actualVersion: NO_STREAM });
    expect(await collect(client.readStream(name))).toHaveLength(1);
  });

  it('says a stream that was never written is not found', async () => {
    await expect(collect(client.readStream(stream('never')))).rejects.toBeInstanceOf(
      StreamNotFoundError,
    );
  });

  it('reads a stream backwards from its end, and nothing forwards from past it', async () => {
    const name = stream('directions');
    await client.appendToStream(name, [event(), event(), event()]);

    const backwards = await collect(
      client.readStream(name, { direction: BACKWARDS, fromRevision: END, maxCount: 2 }),
    );
    const pastEnd = await collect(client.readStream(name, { fromRevision: 3n }));

    expect(backwards.map(({ event: e }) => e?.revision)).toEqual([2n, 1n]);
    expect(pastEnd).toEqual([]);
  });

  it('reads $all forwards from an event inclusive, and backwards from it exclusive', async () => {
    const name = stream('all');
    await client.appendToStream(name, [event(), event(), event()]);
    const ours = (events: AllStreamResolvedEvent[]) =>
      events.filter(({ event: e }) => e?.streamId === name).map(({ event: e }) => e!);
    const written = ours(
      await collect(client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 50 })),
    ).reverse();
    const middle = written[1]!.position;

    const forwards = ours(await collect(client.readAll({ fromPosition: middle, maxCount: 50 })));
    const backwards = ours(
      await collect(client.readAll({ direction: BACKWARDS, fromPosition: middle, maxCount: 50 })),
    );

    expect(written.map((e) => e.revision)).toEqual([0n, 1n, 2n]);
    expect(before(written[0]!.position, written[1]!.position)).toBe(true);
    expect(before(written[1]!.position, written[2]!.position)).toBe(true);
    expect(forwards.map((e) => e.revision)).toEqual([1n, 2n]);
    expect(backwards.map((e) => e.revision)).toEqual([0n]);
  });

  it('subscribes to $all after a position: confirmed, catching up, caught up, then live', async () => {
    const name = stream('subscription');
    await client.appendToStream(name, [event('Kept'), event('Kept')]);
    const stored = await collect(
      client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 50 }),
    );
    const firstPosition = stored.find(({ event: e }) => e?.streamId === name && e.revision === 0n)!
      .event!.position;
    const signals: string[] = [];
    const received: string[] = [];
    const subscription = client.subscribeToAll({
      fromPosition: firstPosition,
      filter: eventTypeFilter({ prefixes: ['Kept'] }),
    });
    subscription.on('confirmation', () => signals.push('confirmation'));
    const caughtUp = new Promise<void>((resolve) =>
      subscription.once('caughtUp', () => {
        signals.push('caughtUp');
        resolve();
      }),
    );
    const reading = (async () => {
      for await (const { event: e } of subscription) {
        if (e?.streamId !== name) continue;
        received.push(`${e.type}${e.revision}`);
        if (e.revision === 3n) break;
      }
    })();

    await caughtUp;
    await client.appendToStream(name, [event('Dropped'), event('Kept')], {
      expectedRevision: 1n,
    });
    await reading;
    await subscription.unsubscribe();

    expect(received).toEqual(['Kept1', 'Kept3']);
    expect(signals).toEqual(['confirmation', 'caughtUp']);
  });

  it('subscribes from a position between two events starting at the later one', async () => {
    const name = stream('between');
    await client.appendToStream(name, [event(), event(), event()]);
    const stored = await collect(
      client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 50 }),
    );
    const first = stored.find(({ event: e }) => e?.streamId === name && e.revision === 0n)!.event!
      .position;
    const subscription = client.subscribeToAll({
      fromPosition: { commit: first.commit + 1n, prepare: first.prepare + 1n },
    });

    let revision: bigint | undefined;
    for await (const { event: e } of subscription) {
      if (e?.streamId !== name) continue;
      revision = e.revision;
      break;
    }
    await subscription.unsubscribe();

    expect(revision).toBe(1n);
  });

  it('drops a subscriber that leaves its live events unread', async () => {
    const name = stream('slow');
    const subscription = client.subscribeToAll({ fromPosition: END });
    await new Promise((resolve) => subscription.once('caughtUp', resolve));

    // Nothing reads meanwhile: the client's buffer fills, then the connection's window, then the
    // server's live buffer.
    const appended = 2_000;
    for (let i = 0; i < appended; i += 200)
      await client.appendToStream(
        name,
        Array.from({ length: 200 }, () => event()),
      );
    let received = 0;
    const outcome = await (async () => {
      for await (const { event: e } of subscription) if (e?.streamId === name) received += 1;
      return 'ended';
    })().catch((error: unknown) => error);

    expect(outcome).toBeInstanceOf(TimeoutError);
    expect(received).toBeLessThan(appended);
  });
});
