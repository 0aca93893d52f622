import type { EventStore, ReadStreamOptions, RecordedEvent } from './port.ts';

/**
 * `store`, but a read of a stream that begins within `page` (its first event is there) is
 * answered from the page: the stream as of the page's end, without a query. A follower reading
 * the streams of the events it is given (to know a bet's parties, say) then reads nothing for a
 * stream born in the same page, which under a stream of new bets is nearly every one.
 */
export function withPageStreams(store: EventStore, page: RecordedEvent[]): EventStore {
  const begun = new Map<string, RecordedEvent[]>();
  for (const event of page) {
    const stream = begun.get(event.streamId);
    if (stream) stream.push(event);
    else if (event.revision === 0n) begun.set(event.streamId, [event]);
  }
  return begun.size === 0 ? store : answering(store, begun);
}

/**
 * Reads `streamIds` in one round trip (one snapshot), then answers reads of those streams from
 * what it read: the streams a command or a job decides on, read together rather than one by one.
 */
export async function withStreamsRead(
  store: EventStore,
  streamIds: readonly string[],
): Promise<EventStore> {
  const read = await store.readStreams(streamIds);
  return answering(store, new Map(streamIds.map((id, i) => [id, read[i] ?? []])));
}

/** `store`, with the streams in `known` read from there: whole, in revision order. */
function answering(store: EventStore, known: Map<string, RecordedEvent[]>): EventStore {
  const readStream = async (streamId: string, options: ReadStreamOptions = {}) => {
    const stream = known.get(streamId);
    if (!stream) return store.readStream(streamId, options);
    const from = options.fromRevision ?? 0n;
    const events = stream.filter((event) => event.revision >= from);
    return options.maxCount === undefined ? events : events.slice(0, options.maxCount);
  };
  const readStreams = async (streamIds: readonly string[]) => {
    const others = streamIds.filter((id) => !known.has(id));
    const read = others.length > 0 ? await store.readStreams(others) : [];
    const fromStore = new Map(others.map((id, i) => [id, read[i] ?? []]));
    return streamIds.map((id) => known.get(id) ?? fromStore.get(id) ?? []);
  };
  return new Proxy(store, {
    get(target, key) {
      if (key === 'readStream') return readStream;
      if (key === 'readStreams') return readStreams;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}
