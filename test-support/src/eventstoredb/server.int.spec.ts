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
  WrongExpectedVersionError,
  eventTypeFilter,
  type AllStreamResolvedEvent,
  type Position,
} from '@eventstore/db-client';
import { credentials, status } from '@grpc/grpc-js';
import type { SupportedMethods } from '@eventstore/db-client/generated/serverfeatures_pb.js';
import {
  anyMessage,
  ServerFeaturesClient,
  shared,
  streams,
  StreamsClient,
  timestamp,
  type BatchAppendResp,
} from './protocol.ts';
import { startEventStoreDbStandIn } from './server.ts';
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

/** host:port of an `esdb://host:port?tls=false` connection string, for a raw gRPC client. */
const address = (url: string) => new URL(url.replace(/^esdb:/, 'http:')).host;

/** The methods a server lists, as `service/method` in lower case. */
async function supportedMethods(url: string): Promise<string[]> {
  const features = new ServerFeaturesClient(address(url), credentials.createInsecure());
  try {
    const answer = await new Promise<SupportedMethods>((resolve, reject) =>
      features.getSupportedMethods(new shared.Empty(), (error, methods) =>
        error ? reject(error) : resolve(methods),
      ),
    );
    return answer.getMethodsList().map((m) => `${m.getServiceName()}/${m.getMethodName()}`);
  } finally {
    features.close();
  }
}

type BatchAppendOptions = InstanceType<typeof streams.BatchAppendReq.Options>;

/** One chunk of a batch append, as the client's `batchAppend` writes it. */
function chunk(
  correlation: string,
  events: number,
  isFinal: boolean,
  options?: BatchAppendOptions,
) {
  const request = new streams.BatchAppendReq()
    .setCorrelationId(new shared.UUID().setString(correlation))
    .setIsFinal(isFinal)
    .setProposedMessagesList(
      Array.from({ length: events }, () => {
        const message = new streams.BatchAppendReq.ProposedMessage()
          .setId(new shared.UUID().setString(randomUUID()))
          .setData(Buffer.from('{}'));
        message.getMetadataMap().set('type', 'Happened').set('content-type', 'application/json');
        return message;
      }),
    );
  return options ? request.setOptions(options) : request;
}

function batchOptions(name: string, deadline = new Date(Date.now() + 10_000)) {
  return new streams.BatchAppendReq.Options()
    .setStreamIdentifier(new shared.StreamIdentifier().setStreamName(Buffer.from(name)))
    .setDeadline(timestamp.Timestamp.fromDate(deadline));
}

/** The type and fields of the detail a batch append error packs. */
function errorDetail(response: BatchAppendResp) {
  const error = response.getError()!;
  const details = error.getDetails() ?? new anyMessage.Any();
  const wrong = details.unpack(
    (bytes) => shared.WrongExpectedVersion.deserializeBinary(bytes),
    'event_store.client.WrongExpectedVersion',
  );
  return {
    code: error.getCode() as number,
    type: details.getTypeName(),
    ...(wrong
      ? {
          current: wrong.getCurrentStreamRevision(),
          expected: wrong.getExpectedStreamPosition(),
        }
      : {}),
  };
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

  it('lists BatchAppend among its methods, as 24.10 does', async () => {
    expect(await supportedMethods(server.url)).toEqual(
      expect.arrayContaining([
        'event_store.client.streams.streams/append',
        'event_store.client.streams.streams/batchappend',
        'event_store.client.streams.streams/read',
      ]),
    );
  });

  it('batch appends: chunks gathered by correlation id until the final one, each write answered', async () => {
    const chunked = stream('chunked');
    const single = stream('single');
    const [a, b, c, d] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const raw = new StreamsClient(address(server.url), credentials.createInsecure());
    const answers = new Map<string, BatchAppendResp>();
    try {
      await new Promise<void>((resolve, reject) => {
        const call = raw.batchAppend();
        call.on('data', (response: BatchAppendResp) => {
          answers.set(response.getCorrelationId()!.getString(), response);
          if (answers.size === 4) call.end();
        });
        call.on('error', reject);
        call.on('end', resolve);
        call.write(chunk(a, 2, false, batchOptions(chunked).setAny(new shared.Empty())));
        call.write(chunk(b, 1, true, batchOptions(single).setNoStream(new shared.Empty())));
        call.write(chunk(a, 1, true));
        call.write(chunk(c, 1, true, batchOptions(single).setStreamPosition('5')));
        call.write(
          chunk(
            d,
            1,
            true,
            batchOptions(single, new Date(Date.now() - 1_000)).setAny(new shared.Empty()),
          ),
        );
      });
    } finally {
      raw.close();
    }

    const success = (id: string) => answers.get(id)?.getSuccess();
    expect(success(a)?.getCurrentRevision()).toBe('2');
    expect(success(a)?.hasPosition()).toBe(true);
    expect(success(b)?.getCurrentRevision()).toBe('0');
    expect(BigInt(success(a)!.getPosition()!.getCommitPosition())).toBeGreaterThan(
      BigInt(success(b)!.getPosition()!.getCommitPosition()),
    );
    expect(errorDetail(answers.get(c)!)).toEqual({
      code: status.ALREADY_EXISTS,
      type: 'event_store.client.WrongExpectedVersion',
      current: '0',
      expected: '5',
    });
    expect(errorDetail(answers.get(d)!)).toMatchObject({
      code: status.DEADLINE_EXCEEDED,
      type: 'event_store.client.Timeout',
    });
    expect(
      Buffer.from(answers.get(c)!.getStreamIdentifier()!.getStreamName_asU8()).toString(),
    ).toBe(single);
    expect(await collect(client.readStream(chunked))).toHaveLength(3);
    expect(await collect(client.readStream(single))).toHaveLength(1);
  });

  it('answers a batch append whose final chunk never comes with a timeout', async () => {
    const name = stream('unfinished');
    const id = randomUUID();
    const raw = new StreamsClient(address(server.url), credentials.createInsecure());
    try {
      const answer = await new Promise<BatchAppendResp>((resolve, reject) => {
        const call = raw.batchAppend();
        call.once('data', (response: BatchAppendResp) => {
          call.end();
          resolve(response);
        });
        call.on('error', reject);
        call.write(
          chunk(
            id,
            1,
            false,
            batchOptions(name, new Date(Date.now() + 200)).setAny(new shared.Empty()),
          ),
        );
      });
      expect(answer.getCorrelationId()!.getString()).toBe(id);
      expect(errorDetail(answer)).toMatchObject({ code: status.DEADLINE_EXCEEDED });
    } finally {
      raw.close();
    }
    await expect(collect(client.readStream(name))).rejects.toBeInstanceOf(StreamNotFoundError);
  });

  it('lets a subscriber that leaves its live events unread fall behind and catch up, missing nothing', async () => {
    const name = stream('slow');
    const subscription = client.subscribeToAll({ fromPosition: END });
    const signals: string[] = [];
    subscription.on('caughtUp', () => signals.push('caughtUp'));
    subscription.on('fellBehind', () => signals.push('fellBehind'));
    await new Promise((resolve) => subscription.once('caughtUp', resolve));

    // Nothing reads meanwhile: the client's buffer fills, then the connection's window, then the
    // server's live buffer, which drops its oldest events.
    const appended = 2_000;
    for (let i = 0; i < appended; i += 200)
      await client.appendToStream(
        name,
        Array.from({ length: 200 }, () => event()),
      );
    const received: bigint[] = [];
    for await (const { event: e } of subscription) {
      if (e?.streamId !== name) continue;
      received.push(e.revision);
      if (received.length === appended) break;
    }
    await subscription.unsubscribe();

    expect(received).toEqual(Array.from({ length: appended }, (_, i) => BigInt(i)));
    expect(signals.slice(0, 2)).toEqual(['caughtUp', 'fellBehind']);
  });
});

describe.skipIf(process.env.EVENTSTORE_URL)('the stand-in offering plain appends only', () => {
  it('leaves BatchAppend off its list, and the client still appends (through Append)', async () => {
    const standIn = await startEventStoreDbStandIn({ appends: 'plain' });
    const client = EventStoreDBClient.connectionString(standIn.url);
    try {
      const name = stream('plain');
      const result = await client.appendToStream(name, [event(), event()]);

      expect(await supportedMethods(standIn.url)).not.toContain(
        'event_store.client.streams.streams/batchappend',
      );
      expect(result.nextExpectedRevision).toBe(1n);
      expect(await collect(client.readStream(name))).toHaveLength(2);
    } finally {
      await client.dispose();
      await standIn.stop();
    }
  });
});
