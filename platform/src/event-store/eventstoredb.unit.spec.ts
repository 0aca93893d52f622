import { describe, expect, it } from 'vitest';
import { formatPosition } from '@wagers/contracts/position';
import { recordedPosition } from './eventstoredb.ts';

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
