import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparePositions, type GlobalPosition } from '@wagers/contracts/position';
import {
  ConcurrencyError,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type RecordedEvent,
} from './port.ts';
import { followAll } from './recording-follower.ts';
import { sampleEvent as newEvent, uniqueStreamId } from './sample-events.ts';

export interface EventStoreUnderTest {
  store: EventStore;
  /** Releases what the factory opened: the store, its connections, its database or server. */
  dispose(): Promise<void>;
}

const newEvents = (count: number) =>
  Array.from({ length: count }, (_, i) => newEvent('Counted', { i }));
const ids = (events: { id: string }[]) => events.map((event) => event.id);

async function refusal(attempt: Promise<unknown>): Promise<ConcurrencyError> {
  const outcome = await attempt.then(
    () => null,
    (error: unknown) => error,
  );
  expect(outcome, 'the append should have been refused').toBeInstanceOf(ConcurrencyError);
  return outcome as ConcurrencyError;
}

/** Every event of the global log after `after`, read in pages of `pageSize`. */
async function readAllAfter(
  store: EventStore,
  after: GlobalPosition | null,
  pageSize = 500,
  reaching?: GlobalPosition,
): Promise<{ events: RecordedEvent[]; pageSizes: number[] }> {
  const events: RecordedEvent[] = [];
  const pageSizes: number[] = [];
  let cursor = after;
  const deadline = Date.now() + 15_000;
  for (;;) {
    const page = await store.readAll({ after: cursor, maxCount: pageSize });
    if (page.length === 0) {
      // Short of `reaching`: the log's end held back for a moment (see shortOf); read on from here.
      if (shortOf(cursor, reaching) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      return { events, pageSizes };
    }
    pageSizes.push(page.length);
    events.push(...page);
    cursor = page[page.length - 1]!.position;
  }
}

/**
 * Whether a read that ended at `last` stopped short of `reaching`. A PostgreSQL read ends at the
 * log's horizon as it stood: a transaction of another database that ends between the read's
 * snapshot and its look at the running backends holds that back for a moment, as it may hold an
 * append of this one (es_log_horizon counts what it cannot place). Readers read on later; so do
 * these tests, where they expect a read to reach their own appends.
 */
function shortOf(last: GlobalPosition | null, reaching: GlobalPosition | undefined): boolean {
  return reaching !== undefined && (last === null || comparePositions(last, reaching) < 0);
}

/**
 * The head once the global log shows everything up to `position`. A PostgreSQL reader sees a
 * write only after every older transaction on the server has ended, so a test that reads the
 * log right after its own append waits for that, as read-your-writes does.
 */
export async function headReaching(
  store: EventStore,
  position: GlobalPosition,
  timeoutMs = 15_000,
): Promise<GlobalPosition> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const head = await store.headPosition();
    if (head && comparePositions(head, position) >= 0) return head;
    if (Date.now() > deadline) throw new Error(`The head stayed at ${head} short of ${position}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function expectAscending(positions: GlobalPosition[]): void {
  for (let i = 1; i < positions.length; i++) {
    expect(
      comparePositions(positions[i - 1]!, positions[i]!),
      `position ${i} follows ${i - 1}`,
    ).toBe(-1);
  }
}

/**
 * The behaviour every EventStore adapter must show. Each test writes to streams of its own, and
 * reads of the global log look only at those, so the suite also runs against a shared server.
 */
export function eventStoreContractSuite(
  name: string,
  factory: () => Promise<EventStoreUnderTest>,
): void {
  describe(`${name} event store contract`, () => {
    let underTest: EventStoreUnderTest | undefined;
    const store = (): EventStore => {
      if (!underTest) throw new Error('the event store was not set up');
      return underTest.store;
    };

    beforeAll(async () => {
      underTest = await factory();
    }, 120_000);
    afterAll(async () => {
      await underTest?.dispose();
    }, 60_000);

    describe('appendToStream', () => {
      it('creates a stream with no_stream and stores the events as given', async () => {
        const streamId = uniqueStreamId('create');
        const events = [
          newEvent('BetProposed', {
            stake: '10 €',
            terms: 'Ünïcödé "quoted"',
            nested: { list: [1, null, true] },
          }),
          newEvent('BetAccepted', {}),
        ];

        const result = await store().appendToStream(streamId, events, {
          expectedRevision: 'no_stream',
        });

        expect(result.nextExpectedRevision).toBe(1n);
        const stored = await store().readStream(streamId);
        expect(
          stored.map(({ id, streamId: s, revision, type, data, metadata }) => ({
            id,
            streamId: s,
            revision,
            type,
            data,
            metadata,
          })),
        ).toEqual(events.map((event, i) => ({ ...event, streamId, revision: BigInt(i) })));
        for (const event of stored) expect(event.recordedAt).toBeInstanceOf(Date);
      });

      it('refuses no_stream when the stream exists and writes nothing', async () => {
        const streamId = uniqueStreamId('exists');
        const first = newEvent();
        await store().appendToStream(streamId, [first], { expectedRevision: 'no_stream' });

        const error = await refusal(
          store().appendToStream(streamId, newEvents(2), { expectedRevision: 'no_stream' }),
        );

        expect(error.streamId).toBe(streamId);
        expect(error.expected).toBe('no_stream');
        expect(ids(await store().readStream(streamId))).toEqual([first.id]);
      });

      it('appends with any whether or not the stream exists', async () => {
        const streamId = uniqueStreamId('any');
        const first = await store().appendToStream(streamId, [newEvent()], {
          expectedRevision: 'any',
        });
        const second = await store().appendToStream(streamId, newEvents(2), {
          expectedRevision: 'any',
        });

        expect(first.nextExpectedRevision).toBe(0n);
        expect(second.nextExpectedRevision).toBe(2n);
        expect((await store().readStream(streamId)).map((e) => e.revision)).toEqual([0n, 1n, 2n]);
      });

      it('appends when the expected revision is the last one', async () => {
        const streamId = uniqueStreamId('exact');
        const { nextExpectedRevision } = await store().appendToStream(streamId, [newEvent()], {
          expectedRevision: 'no_stream',
        });
        const batch = newEvents(3);

        const result = await store().appendToStream(streamId, batch, {
          expectedRevision: nextExpectedRevision,
        });

        expect(result.nextExpectedRevision).toBe(3n);
        expect(ids((await store().readStream(streamId)).slice(1))).toEqual(ids(batch));
      });

      it.each<[string, ExpectedRevision]>([
        ['behind', 0n],
        ['ahead', 5n],
      ])(
        'refuses an expected revision %s of the stream and writes nothing',
        async (_, expectedRevision) => {
          const streamId = uniqueStreamId('conflict');
          const before = newEvents(2);
          const { position } = await store().appendToStream(streamId, before, {
            expectedRevision: 'no_stream',
          });
          const head = await headReaching(store(), position);
          const refused = newEvents(3);

          const error = await refusal(
            store().appendToStream(streamId, refused, { expectedRevision }),
          );

          expect(error.expected).toBe(expectedRevision);
          expect(ids(await store().readStream(streamId))).toEqual(ids(before));
          const refusedIds = new Set(ids(refused));
          const later = await readAllAfter(store(), head);
          expect(
            later.events.filter((e) => e.streamId === streamId || refusedIds.has(e.id)),
          ).toEqual([]);
        },
      );

      it('refuses an exact revision for a stream that does not exist', async () => {
        const streamId = uniqueStreamId('missing');

        await refusal(store().appendToStream(streamId, [newEvent()], { expectedRevision: 0n }));

        expect(await store().readStream(streamId)).toEqual([]);
      });

      it('lets exactly one of several racing writers with the same expected revision win', async () => {
        const streamId = uniqueStreamId('race');
        await store().appendToStream(streamId, [newEvent()], { expectedRevision: 'no_stream' });
        const attempts = Array.from({ length: 6 }, () => newEvents(2));

        const outcomes = await Promise.allSettled(
          attempts.map((events) =>
            store().appendToStream(streamId, events, { expectedRevision: 0n }),
          ),
        );

        const winners = attempts.filter((_, i) => outcomes[i]!.status === 'fulfilled');
        expect(winners).toHaveLength(1);
        for (const outcome of outcomes) {
          if (outcome.status === 'rejected')
            expect(outcome.reason).toBeInstanceOf(ConcurrencyError);
        }
        expect(ids((await store().readStream(streamId)).slice(1))).toEqual(ids(winners[0]!));
      });

      it('reports a position after the previous head and no later than its last event', async () => {
        const streamId = uniqueStreamId('position');
        const first = await store().appendToStream(streamId, [newEvent()], {
          expectedRevision: 'no_stream',
        });
        const head = await headReaching(store(), first.position);

        const result = await store().appendToStream(streamId, newEvents(3), {
          expectedRevision: 0n,
        });

        expect(comparePositions(head, result.position)).toBe(-1);
        await headReaching(store(), result.position);
        const written = (await readAllAfter(store(), head, 500, result.position)).events.filter(
          (e) => e.streamId === streamId,
        );
        expect(written.map((e) => e.revision)).toEqual([1n, 2n, 3n]);
        // Read-your-writes waits until a reader has passed this position: it must not lie beyond the write.
        expect(comparePositions(result.position, written[2]!.position)).toBeLessThanOrEqual(0);
      });
    });

    describe('readStream', () => {
      it('reads forward from a revision, at most maxCount events', async () => {
        const streamId = uniqueStreamId('read');
        const events = newEvents(5);
        await store().appendToStream(streamId, events, { expectedRevision: 'no_stream' });

        const all = await store().readStream(streamId);
        const middle = await store().readStream(streamId, { fromRevision: 2n, maxCount: 2 });
        const tail = await store().readStream(streamId, { fromRevision: 3n });
        const beyond = await store().readStream(streamId, { fromRevision: 5n });

        expect(all.map((e) => e.revision)).toEqual([0n, 1n, 2n, 3n, 4n]);
        expect(ids(all)).toEqual(ids(events));
        expect(middle.map((e) => e.revision)).toEqual([2n, 3n]);
        expect(ids(tail)).toEqual(ids(events.slice(3)));
        expect(beyond).toEqual([]);
      });

      it('reads several streams at once, each whole and in the order asked', async () => {
        const [a, b, none] = [
          uniqueStreamId('many'),
          uniqueStreamId('many'),
          uniqueStreamId('none'),
        ];
        await store().appendToStream(a, newEvents(3), { expectedRevision: 'no_stream' });
        await store().appendToStream(b, newEvents(1), { expectedRevision: 'no_stream' });
        await store().appendToStream(a, newEvents(1), { expectedRevision: 2n });

        const read = await store().readStreams([b, none, a, b]);

        expect(read.map((events) => ids(events))).toEqual([
          ids(await store().readStream(b)),
          [],
          ids(await store().readStream(a)),
          ids(await store().readStream(b)),
        ]);
        expect(read[2]!.map((e) => e.revision)).toEqual([0n, 1n, 2n, 3n]);
        expect(read[2]!.every((e) => e.streamId === a)).toBe(true);
        expect(await store().readStreams([])).toEqual([]);
      });

      it('returns an empty list for a stream that does not exist', async () => {
        expect(await store().readStream(uniqueStreamId('nothing'))).toEqual([]);
        expect(
          await store().readStream(uniqueStreamId('nothing'), { fromRevision: 3n, maxCount: 1 }),
        ).toEqual([]);
      });
    });

    describe('readAll', () => {
      it('pages through the global log after a position, in log order', async () => {
        const [a, b] = [uniqueStreamId('all_a'), uniqueStreamId('all_b')];
        const head = await store().headPosition();
        const written: EventToAppend[] = [];
        const append = async (
          streamId: string,
          events: EventToAppend[],
          expectedRevision: ExpectedRevision,
        ) => {
          written.push(...events);
          return store().appendToStream(streamId, events, { expectedRevision });
        };
        await append(a, newEvents(2), 'no_stream');
        await append(b, newEvents(1), 'no_stream');
        const last = await append(a, newEvents(3), 1n);
        await headReaching(store(), last.position);

        const { events, pageSizes } = await readAllAfter(store(), head, 2, last.position);

        const ours = events.filter((e) => e.streamId === a || e.streamId === b);
        expect(ids(ours)).toEqual(ids(written));
        expect(ours.map((e) => `${e.streamId === a ? 'a' : 'b'}${e.revision}`)).toEqual([
          'a0',
          'a1',
          'b0',
          'a2',
          'a3',
          'a4',
        ]);
        expect(Math.max(...pageSizes)).toBeLessThanOrEqual(2);
        expectAscending(events.map((e) => e.position));
        if (head) expect(comparePositions(head, events[0]!.position)).toBe(-1);
      });

      it('continues after the last event of a page without repeating or skipping', async () => {
        const streamId = uniqueStreamId('pages');
        const head = await store().headPosition();
        const events = newEvents(7);
        const { position } = await store().appendToStream(streamId, events, {
          expectedRevision: 'no_stream',
        });
        await headReaching(store(), position);

        const whole = (await readAllAfter(store(), head, 1000, position)).events.filter(
          (e) => e.streamId === streamId,
        );
        const paged = (await readAllAfter(store(), head, 3, position)).events.filter(
          (e) => e.streamId === streamId,
        );
        const fromMiddle = (
          await readAllAfter(store(), whole[3]!.position, 3, position)
        ).events.filter((e) => e.streamId === streamId);

        expect(ids(whole)).toEqual(ids(events));
        expect(paged).toEqual(whole);
        expect(ids(fromMiddle)).toEqual(ids(events.slice(4)));
      });

      it('reads nothing of a stream after its last event', async () => {
        const streamId = uniqueStreamId('after_last');
        const head = await store().headPosition();
        const { position } = await store().appendToStream(streamId, newEvents(2), {
          expectedRevision: 'no_stream',
        });
        await headReaching(store(), position);
        const written = (await readAllAfter(store(), head, 500, position)).events.filter(
          (e) => e.streamId === streamId,
        );

        const tail = await readAllAfter(store(), written[1]!.position);

        expect(written).toHaveLength(2);
        expect(tail.events.filter((e) => e.streamId === streamId)).toEqual([]);
      });
    });

    describe('readAllPages', () => {
      /**
       * Every page the bulk read gives after `after`, with only this test's streams kept. A read
       * that ends short of `reaching` (see shortOf) is made again, whole.
       */
      async function bulkRead(
        after: GlobalPosition | null,
        pageSize: number,
        streams: string[],
        reaching: GlobalPosition,
      ) {
        const deadline = Date.now() + 15_000;
        for (;;) {
          const pages: RecordedEvent[][] = [];
          for await (const page of store().readAllPages({ after, pageSize })) pages.push(page);
          const all = pages.flat();
          if (!shortOf(all.at(-1)?.position ?? after, reaching) || Date.now() > deadline) {
            return {
              pageSizes: pages.map((page) => page.length),
              events: all.filter((e) => streams.includes(e.streamId)),
              all,
            };
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }

      it('gives exactly what readAll gives, in full pages of log order until the last', async () => {
        const [a, b] = [uniqueStreamId('bulk_a'), uniqueStreamId('bulk_b')];
        const head = await store().headPosition();
        // Text COPY escapes: tabs, line breaks, backslashes, quotes and more than ASCII.
        const awkward = newEvent('Awkward', {
          text: 'tab\there\nnew line\r\\ back\\slash "quoted" \u00e9\u4e2d\ud83c\udfb2',
          nested: { list: [1, 2.5, null, true], empty: '' },
        });
        await store().appendToStream(a, [...newEvents(3), awkward], {
          expectedRevision: 'no_stream',
        });
        await store().appendToStream(b, newEvents(2), { expectedRevision: 'no_stream' });
        const last = await store().appendToStream(a, newEvents(3), { expectedRevision: 3n });
        await headReaching(store(), last.position);

        const bulk = await bulkRead(head, 3, [a, b], last.position);
        const paged = (await readAllAfter(store(), head, 3, last.position)).events;

        expect(bulk.events).toEqual(paged.filter((e) => e.streamId === a || e.streamId === b));
        expect(bulk.events).toHaveLength(9);
        expect(bulk.events.find((e) => e.id === awkward.id)?.data).toEqual(awkward.data);
        expect(bulk.pageSizes.slice(0, -1).every((size) => size === 3)).toBe(true);
        expect(bulk.pageSizes.at(-1)).toBeLessThanOrEqual(3);
        expectAscending(bulk.all.map((e) => e.position));
      });

      it('gives a page of megabytes whole, characters beyond ASCII included', async () => {
        const streamId = uniqueStreamId('bulk_large');
        const head = await store().headPosition();
        // Each event's text is an odd number of bytes long, so the pieces a large page arrives in
        // end in the middle of lines and of characters.
        const text = `${'é中🎲\t'.repeat(150)}x`;
        let last: GlobalPosition | null = null;
        for (let batch = 0; batch < 4; batch++) {
          const events = Array.from({ length: 100 }, (_, i) =>
            newEvent('Large', { text, n: batch * 100 + i }),
          );
          const written = await store().appendToStream(streamId, events, {
            expectedRevision: batch === 0 ? 'no_stream' : BigInt(batch * 100 - 1),
          });
          last = written.position;
        }
        await headReaching(store(), last!);

        const bulk = await bulkRead(head, 1000, [streamId], last!);
        const paged = (await readAllAfter(store(), head, 1000, last!)).events;

        expect(bulk.events).toHaveLength(400);
        expect(bulk.events).toEqual(paged.filter((e) => e.streamId === streamId));
        expect(bulk.events.map((e) => (e.data as { n: number }).n)).toEqual(
          Array.from({ length: 400 }, (_, i) => i),
        );
      });

      it('resumes after a position without repeating or skipping, and ends at the head', async () => {
        const streamId = uniqueStreamId('bulk_resume');
        const head = await store().headPosition();
        const events = newEvents(7);
        const { position } = await store().appendToStream(streamId, events, {
          expectedRevision: 'no_stream',
        });
        await headReaching(store(), position);
        const whole = (await bulkRead(head, 1000, [streamId], position)).events;

        const fromMiddle = await bulkRead(whole[3]!.position, 2, [streamId], position);
        const fromLast = await bulkRead(whole[6]!.position, 2, [streamId], position);

        expect(ids(whole)).toEqual(ids(events));
        expect(ids(fromMiddle.events)).toEqual(ids(events.slice(4)));
        expect(fromLast.events).toEqual([]);
      });
    });

    describe('headPosition', () => {
      it('reaches the position of the last append', async () => {
        const streamId = uniqueStreamId('head');
        const result = await store().appendToStream(streamId, newEvents(2), {
          expectedRevision: 'no_stream',
        });

        const head = await headReaching(store(), result.position);

        expect(comparePositions(head, result.position)).toBeGreaterThanOrEqual(0);
      });
    });

    describe('subscribeToAll', () => {
      it('catches up with stored events, says so, then delivers new ones live', async () => {
        const streamId = uniqueStreamId('live');
        const head = await store().headPosition();
        const stored = newEvents(3);
        await store().appendToStream(streamId, stored, { expectedRevision: 'no_stream' });
        const follower = followAll(store(), { after: head, keep: (e) => e.streamId === streamId });
        try {
          await follower.until(() => follower.caughtUp.length > 0, 'caught up');
          expect(follower.caughtUp[0]).toBe(3);
          expect(ids(follower.events)).toEqual(ids(stored));

          const live = newEvents(2);
          await store().appendToStream(streamId, live, { expectedRevision: 2n });
          await follower.until(() => follower.events.length >= 5, 'the live events');

          expect(ids(follower.events)).toEqual(ids([...stored, ...live]));
          expect(follower.events.map((e) => e.revision)).toEqual([0n, 1n, 2n, 3n, 4n]);
          expectAscending(follower.events.map((e) => e.position));
        } finally {
          await follower.stop();
        }
      });

      it('resumes after a checkpoint with exactly the events that follow it', async () => {
        const [a, b] = [uniqueStreamId('resume_a'), uniqueStreamId('resume_b')];
        const ours = (e: RecordedEvent) => e.streamId === a || e.streamId === b;
        const head = await store().headPosition();
        const first = newEvents(3);
        const second = newEvents(2);
        await store().appendToStream(a, first, { expectedRevision: 'no_stream' });
        await store().appendToStream(b, second, { expectedRevision: 'no_stream' });

        const before = followAll(store(), { after: head, keep: ours });
        await before.until(() => before.events.length >= 5, 'the first five events');
        await before.stop();
        const checkpoint = before.events[1]!.position;

        const after = followAll(store(), { after: checkpoint, keep: ours });
        try {
          const marker = newEvent('Marker');
          await store().appendToStream(b, [marker], { expectedRevision: 1n });
          await after.until(() => after.events.some((e) => e.id === marker.id), 'the marker event');

          expect(ids(after.events)).toEqual([...ids(first.slice(2)), ...ids(second), marker.id]);
        } finally {
          await after.stop();
        }
      });

      it('hands over pages no larger than batchSize, in log order', async () => {
        const streamId = uniqueStreamId('batches');
        const head = await store().headPosition();
        const events = newEvents(7);
        await store().appendToStream(streamId, events, { expectedRevision: 'no_stream' });

        const follower = followAll(store(), {
          after: head,
          batchSize: 2,
          keep: (e) => e.streamId === streamId,
        });
        try {
          await follower.until(() => follower.events.length >= 7, 'all seven events');
          expect(ids(follower.events)).toEqual(ids(events));
          expect(Math.max(...follower.pageSizes)).toBeLessThanOrEqual(2);
        } finally {
          await follower.stop();
        }
      });

      it('stops only once the running onEvents call has returned, and delivers nothing after', async () => {
        const streamId = uniqueStreamId('stop');
        const head = await store().headPosition();
        await store().appendToStream(streamId, newEvents(2), { expectedRevision: 'no_stream' });
        let entered!: () => void;
        const inside = new Promise<void>((resolve) => (entered = resolve));
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let running = false;
        let callsAfterStop = 0;
        let stopped = false;
        const subscription = store().subscribeToAll({
          after: head,
          onEvents: async (page) => {
            if (stopped) callsAfterStop += 1;
            if (!page.some((e) => e.streamId === streamId)) return;
            running = true;
            entered();
            await held;
            running = false;
          },
        });

        await inside;
        const stopping = subscription.stop().then(() => {
          stopped = true;
          return running;
        });
        await store().appendToStream(streamId, newEvents(1), { expectedRevision: 1n });
        release();

        expect(await stopping).toBe(false);
        await subscription.done;
        expect(callsAfterStop).toBe(0);
      });

      it('ends and reports the error when onEvents fails', async () => {
        const streamId = uniqueStreamId('fail');
        const head = await store().headPosition();
        await store().appendToStream(streamId, newEvents(1), { expectedRevision: 'no_stream' });
        const failure = new Error('projector broke');
        const errors: unknown[] = [];

        const subscription = store().subscribeToAll({
          after: head,
          onEvents: (page) =>
            page.some((e) => e.streamId === streamId) ? Promise.reject(failure) : Promise.resolve(),
          onError: (error) => errors.push(error),
        });
        await subscription.done;

        expect(errors).toEqual([failure]);
        await subscription.stop();
      });
    });
  });
}
