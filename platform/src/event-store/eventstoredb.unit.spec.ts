import { describe, expect, it } from 'vitest';
import { StreamDeletedError, type EventStoreDBClient } from '@eventstore/db-client';
import { formatPosition } from '@wagers/contracts/position';
import { createEventStoreDbEventStore, recordedPosition } from './eventstoredb.ts';
import { ConcurrencyError } from './port.ts';
import { sampleEvent } from './sample-events.ts';

const event = (position?: { commit: bigint; prepare: bigint }) => ({
  id: '5f0c3b1e-0000-4000-8000-000000000001',
  streamId: 'user-1',
  revision: 3n,
  ...(position ? { position } : {}),
});

describe('the EventStoreDB adapter reading an event position', () => {
  it('takes the position the server reports', () => {
    expect(recordedPosition(event({ commit: 4_096n, prepare: 4_096n }))).toBe(
      formatPosition(4_096n, 4_096n),
    );
  });

  it('refuses an event without a position, naming it', () => {
    expect(() => recordedPosition(event())).toThrow(
      /no log position for event 5f0c3b1e-0000-4000-8000-000000000001 \(user-1@3\)/,
    );
  });

  it("refuses the server's unknown position, -1 as an unsigned number", () => {
    const unknown = 2n ** 64n - 1n;
    expect(() => recordedPosition(event({ commit: unknown, prepare: unknown }))).toThrow(
      /no log position/,
    );
    expect(() => recordedPosition(event({ commit: 4_096n, prepare: unknown }))).toThrow(
      /no log position/,
    );
  });
});

describe('the EventStoreDB adapter on a tombstoned stream', () => {
  // What the client throws for a stream deleted for good: on a read as it iterates, on an append.
  const deleted = (streamId: string) => StreamDeletedError.fromStreamName(streamId);
  const client = {
    readStream: (streamId: string) => ({
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(deleted(streamId)) }),
    }),
    appendToStream: (streamId: string) => Promise.reject(deleted(streamId)),
  };
  const store = createEventStoreDbEventStore(client as unknown as EventStoreDBClient);

  it('reads it as a stream that does not exist', async () => {
    expect(await store.readStream('bet-gone')).toEqual([]);
    expect(await store.readStreams(['bet-gone'])).toEqual([[]]);
  });

  it('refuses an append to it with a ConcurrencyError, whatever was expected', async () => {
    for (const expectedRevision of ['no_stream', 'any', 4n] as const) {
      const refusal = store
        .appendToStream('bet-gone', [sampleEvent()], { expectedRevision })
        .catch((error: unknown) => error);
      expect(await refusal).toBeInstanceOf(ConcurrencyError);
      expect(await refusal).toMatchObject({ streamId: 'bet-gone', expected: expectedRevision });
    }
  });
});
