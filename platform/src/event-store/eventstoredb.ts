import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  excludeSystemEvents,
  FORWARDS,
  NO_STREAM,
  START,
  StreamDeletedError,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type EventData,
  type JSONType,
  type Position,
  type ReadPosition,
  type ResolvedEvent,
} from '@eventstore/db-client';
import type { EventMetadata } from '@wagers/contracts/events/envelope';
import {
  comparePositions,
  formatPosition,
  parsePosition,
  type GlobalPosition,
} from '@wagers/contracts/position';
import { BatchReader, readAhead } from './batch-reader.ts';
import {
  ConcurrencyError,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from './port.ts';

type StoredEvent = NonNullable<ResolvedEvent['event']>;

const toGlobalPosition = ({ commit, prepare }: Position): GlobalPosition =>
  formatPosition(commit, prepare);

function toEsdbPosition(position: GlobalPosition | null | undefined): ReadPosition {
  if (!position) return START;
  const [commit, prepare] = parsePosition(position);
  return { commit, prepare };
}

function toEsdbExpected(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'any') return ANY;
  return expected;
}

function toEventData(event: EventToAppend): EventData {
  return {
    id: event.id,
    contentType: 'application/json',
    type: event.type,
    data: event.data as JSONType,
    metadata: event.metadata as unknown as JSONType,
  };
}

/** EventStoreDB's own streams ($stats, $settings, projections' links) are not our events. */
const isSystemEvent = (event: StoredEvent) =>
  event.streamId.startsWith('$') || event.type.startsWith('$');

/** What the server sends for a position it does not know: -1 as an unsigned 64-bit number. */
const NO_POSITION = 2n ** 64n - 1n;

/**
 * An event's log position. Reads of a stream carry real positions on the servers we run (24.10),
 * and callers use them (a new session starts at the user's last event), so an event without one
 * is an error here, not a position made up that would park a reader at the start or the end.
 */
export function recordedPosition(
  event: Pick<StoredEvent, 'id' | 'streamId' | 'revision' | 'position'>,
): GlobalPosition {
  const { position } = event;
  if (!position || position.commit === NO_POSITION || position.prepare === NO_POSITION)
    throw new Error(
      `EventStoreDB gave no log position for event ${event.id} (${event.streamId}@${event.revision}); ` +
        'the EventStoreDB adapter needs a server that reports positions on stream reads',
    );
  return toGlobalPosition(position);
}

function toRecorded(event: StoredEvent): RecordedEvent {
  return {
    id: event.id,
    streamId: event.streamId,
    revision: event.revision,
    position: recordedPosition(event),
    type: event.type,
    data: event.data,
    metadata: event.metadata as unknown as EventMetadata,
    recordedAt: event.created,
  };
}

/** Event store on an EventStoreDB server; positions are its (commit, prepare) log positions. */
export function createEventStoreDbEventStore(client: EventStoreDBClient): EventStore {
  async function appendToStream(
    streamId: string,
    events: EventToAppend[],
    { expectedRevision }: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('Nothing to append');
    try {
      const result = await client.appendToStream(streamId, events.map(toEventData), {
        expectedRevision: toEsdbExpected(expectedRevision),
      });
      if (!result.position)
        throw new Error(`EventStoreDB gave no position for the append to ${streamId}`);
      return {
        nextExpectedRevision: result.nextExpectedRevision,
        position: toGlobalPosition(result.position),
      };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        throw new ConcurrencyError(streamId, expectedRevision, error.actualVersion ?? 'unknown');
      }
      // A tombstoned stream takes no more writes, whatever the writer expected.
      if (error instanceof StreamDeletedError)
        throw new ConcurrencyError(streamId, expectedRevision, 'unknown');
      throw error;
    }
  }

  async function readStream(
    streamId: string,
    opts: ReadStreamOptions = {},
  ): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      const read = client.readStream(streamId, {
        direction: FORWARDS,
        fromRevision: opts.fromRevision ?? START,
        ...(opts.maxCount === undefined ? {} : { maxCount: opts.maxCount }),
      });
      for await (const resolved of read) {
        if (resolved.event) events.push(toRecorded(resolved.event));
      }
    } catch (error) {
      // A tombstoned stream reads as one that does not exist, as the port asks.
      if (error instanceof StreamNotFoundError || error instanceof StreamDeletedError) return [];
      throw error;
    }
    return events;
  }

  /**
   * One page of our events after `after`. A read of $all starts at its position, inclusive, and
   * carries system events, so it reads on until the page is full or the log ends.
   */
  async function readAll({ after, maxCount }: ReadAllOptions): Promise<RecordedEvent[]> {
    const page: RecordedEvent[] = [];
    let cursor = after ?? null;
    while (page.length < maxCount) {
      const wanted = maxCount - page.length + 1;
      let read = 0;
      const stream = client.readAll({
        direction: FORWARDS,
        fromPosition: toEsdbPosition(cursor),
        maxCount: wanted,
      });
      const startedAt = cursor;
      for await (const resolved of stream) {
        read += 1;
        const event = resolved.event;
        if (!event) continue;
        const position = toGlobalPosition(event.position);
        if (startedAt && comparePositions(position, startedAt) <= 0) continue;
        cursor = position;
        if (!isSystemEvent(event)) page.push(toRecorded(event));
      }
      if (read < wanted) break;
    }
    return page.slice(0, maxCount);
  }

  async function headPosition(): Promise<GlobalPosition | null> {
    const pageSize = 100;
    let from: ReadPosition = END;
    let before: GlobalPosition | null = null;
    for (;;) {
      let read = 0;
      let newest: GlobalPosition | null = null;
      const stream = client.readAll({
        direction: BACKWARDS,
        fromPosition: from,
        maxCount: pageSize,
      });
      // Each page is read to its end: a read left early keeps its call open, and the client's
      // dispose() would wait for that call for ever.
      for await (const resolved of stream) {
        read += 1;
        const event = resolved.event;
        if (!event || newest) continue;
        const position = toGlobalPosition(event.position);
        if (before && comparePositions(position, before) >= 0) continue;
        if (isSystemEvent(event)) before = position;
        else newest = position;
      }
      if (newest) return newest;
      if (read < pageSize || !before) return null;
      from = toEsdbPosition(before);
    }
  }

  function subscribeToAll(opts: SubscribeOptions): Subscription {
    const batchSize = opts.batchSize ?? 500;
    const stopping = new AbortController();

    async function catchUp(after: GlobalPosition | null): Promise<GlobalPosition | null> {
      while (!stopping.signal.aborted) {
        const page = await readAll({ after, maxCount: batchSize });
        if (stopping.signal.aborted || page.length === 0) break;
        await opts.onEvents(page);
        after = page[page.length - 1]!.position;
      }
      return after;
    }

    async function followLive(after: GlobalPosition | null): Promise<void> {
      const live = client.subscribeToAll(
        { fromPosition: toEsdbPosition(after), filter: excludeSystemEvents() },
        { highWaterMark: batchSize },
      );
      const reader = new BatchReader<AllStreamResolvedEvent>(live);
      try {
        while (!stopping.signal.aborted) {
          const batch = await reader.next(batchSize, stopping.signal);
          if (batch === null) throw new Error('EventStoreDB ended the subscription');
          const events = batch
            .flatMap((resolved) => (resolved.event ? [resolved.event] : []))
            .filter((event) => !isSystemEvent(event))
            .map(toRecorded)
            .filter((event) => !after || comparePositions(event.position, after) > 0);
          if (stopping.signal.aborted) break;
          if (events.length > 0) {
            await opts.onEvents(events);
            after = events[events.length - 1]!.position;
          }
          if (live.readableLength === 0) await opts.onCaughtUp?.(after);
        }
      } finally {
        await live.unsubscribe().catch(() => undefined);
        live.destroy();
      }
    }

    const done = (async () => {
      // Reading pages first makes catching up deliver whole pages and say when it is done.
      const after = await catchUp(opts.after ?? null);
      if (stopping.signal.aborted) return;
      await opts.onCaughtUp?.(after);
      await followLive(after);
    })().catch((error: unknown) => {
      if (!stopping.signal.aborted) opts.onError?.(error);
    });

    return {
      done,
      async stop() {
        stopping.abort();
        await done;
      },
    };
  }

  return {
    kind: 'eventstoredb',
    appendToStream,
    readStream,
    // The server reads one stream per call: the streams are read side by side.
    readStreams: (streamIds) => Promise.all(streamIds.map((id) => readStream(id))),
    readAll,
    // $all has no cheaper bulk read than its ordinary one.
    readAllPages: (options) => readAhead(readAll, options),
    subscribeToAll,
    headPosition,
    close: () => client.dispose(),
  };
}

/** Connects to the server at `connectionString` (esdb://host:2113?tls=false). */
export function connectEventStoreDb(connectionString: string): EventStore {
  return createEventStoreDbEventStore(EventStoreDBClient.connectionString(connectionString));
}
