import { describe, expect, it } from 'vitest';
import { parsed, PositionQueue } from './position-queue.ts';

describe('position queue', () => {
  it('gives back the items a position has reached, lowest first, and keeps the rest', () => {
    const queue = new PositionQueue<{ at: readonly [bigint, bigint]; id: string }>();
    const positions = ['7-3', '2-9', '7-1', '10-0', '2-10', '7-3', '3-0'];
    positions.forEach((position, i) =>
      queue.push({ at: parsed(position), id: `${position}#${i}` }),
    );

    expect(queue.takeUpTo(parsed('7-2')).map((item) => item.id)).toEqual([
      '2-9#1',
      '2-10#4',
      '3-0#6',
      '7-1#2',
    ]);
    expect(queue.size).toBe(3);
    queue.retain((item) => item.id !== '7-3#0');
    expect(queue.takeUpTo(parsed('7-3')).map((item) => item.id)).toEqual(['7-3#5']);
    expect(queue.takeUpTo(parsed('9-99'))).toEqual([]);
    expect(queue.drain().map((item) => item.id)).toEqual(['10-0#3']);
  });
});
