import { chainHead, eventHash, storedHash } from './event-hash.ts';
import {
  ConcurrencyError,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type StreamRevision,
} from './port.ts';

/** How often an append with revision "any" retries when another writer moved the stream on. */
const MAX_ANY_ATTEMPTS = 10;

/**
 * Wraps any EventStore so every event it appends carries `metadata.hash`, chained to the previous
 * event of its stream (docs/audit.md). The chain holds only if each hash is computed against the
 * event the append lands after, so the append always names that event's revision: an "any" append
 * becomes an exact one that starts over when another writer got there first.
 */
export function withHashChain(inner: EventStore): EventStore {
  async function hashOf(streamId: string, revision: StreamRevision): Promise<string | null> {
    const [last] = await inner.readStream(streamId, { fromRevision: revision, maxCount: 1 });
    const stored = last && storedHash(last);
    if (stored !== undefined) return stored;
    // Written before hash chains: its hash is computed from the stream's start.
    return chainHead(await inner.readStream(streamId, { maxCount: Number(revision) + 1 }));
  }

  function chained(events: EventToAppend[], previousHash: string | null): EventToAppend[] {
    let previous = previousHash;
    return events.map((event) => {
      const hash = eventHash(event, previous);
      previous = hash;
      return { ...event, metadata: { ...event.metadata, hash } };
    });
  }

  async function appendToStream(
    streamId: string,
    events: EventToAppend[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    const { expectedRevision, previousHash } = options;
    if (expectedRevision === 'no_stream') {
      return inner.appendToStream(streamId, chained(events, null), { expectedRevision });
    }
    if (expectedRevision !== 'any') {
      const previous = previousHash ?? (await hashOf(streamId, expectedRevision));
      return inner.appendToStream(streamId, chained(events, previous), { expectedRevision });
    }
    for (let attempt = 1; ; attempt++) {
      const stream = await inner.readStream(streamId);
      const last = stream[stream.length - 1];
      try {
        return await inner.appendToStream(streamId, chained(events, chainHead(stream)), {
          expectedRevision: last ? last.revision : 'no_stream',
        });
      } catch (error) {
        if (error instanceof ConcurrencyError && attempt < MAX_ANY_ATTEMPTS) continue;
        throw error;
      }
    }
  }

  return {
    kind: inner.kind,
    appendToStream,
    readStream: (streamId, options) => inner.readStream(streamId, options),
    readStreams: (streamIds) => inner.readStreams(streamIds),
    readAll: (options) => inner.readAll(options),
    readAllPages: (options) => inner.readAllPages(options),
    subscribeToAll: (options) => inner.subscribeToAll(options),
    headPosition: () => inner.headPosition(),
    close: () => inner.close(),
  };
}
