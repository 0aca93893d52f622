import { parsePosition, type GlobalPosition } from '@wagers/contracts/position';

/** A position as numbers, compared without parsing again. */
export type ParsedPosition = readonly [bigint, bigint];

export function parsed(position: GlobalPosition): ParsedPosition {
  return parsePosition(position);
}

export function compareParsed(a: ParsedPosition, b: ParsedPosition): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1;
  return 0;
}

/**
 * Items waiting for a position, the lowest first (a binary heap): taking those a new position has
 * reached costs a step per item taken, not a look at every item waiting.
 */
export class PositionQueue<T extends { at: ParsedPosition }> {
  private readonly heap: T[] = [];

  get size(): number {
    return this.heap.length;
  }

  push(item: T): void {
    const heap = this.heap;
    heap.push(item);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (compareParsed(heap[parent]!.at, item.at) <= 0) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = item;
  }

  /** Removes and returns every item at or below `position`, lowest first. */
  takeUpTo(position: ParsedPosition): T[] {
    const taken: T[] = [];
    while (this.heap.length > 0 && compareParsed(this.heap[0]!.at, position) <= 0) {
      taken.push(this.pop());
    }
    return taken;
  }

  /** Keeps only the items for which `keep` holds. */
  retain(keep: (item: T) => boolean): void {
    for (const item of this.heap.splice(0)) if (keep(item)) this.push(item);
  }

  /** Removes and returns every item. */
  drain(): T[] {
    return this.heap.splice(0);
  }

  private pop(): T {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child =
        right < heap.length && compareParsed(heap[right]!.at, heap[left]!.at) < 0 ? right : left;
      if (compareParsed(heap[child]!.at, last.at) >= 0) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}
