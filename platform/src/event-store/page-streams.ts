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
  if (begun.size === 0) return store;
  const readStream = async (streamId: string, options: ReadStreamOptions = {}) => {
    const stream = begun.get(streamId);
    if (!stream) return store.readStream(streamId, options);
    const from = options.fromRevision ?? 0n;
    const events = stream.filter((event) => event.revision >= from);
    return options.maxCount === undefined ? events : events.slice(0, options.maxCount);
  };
  return new Proxy(store, {
    get(target, key) {
      if (key === 'readStream') return readStream;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}
