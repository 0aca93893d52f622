import { comparePositions, type GlobalPosition } from '@wagers/contracts/position';
import type { RecordedEvent } from './port.ts';

/** A follower's page: its events, and whether an open transaction hides committed events beyond. */
export interface TailPage {
  events: RecordedEvent[];
  hidden: boolean;
  /**
   * The page comes from a read that began before the log was last announced to have moved on:
   * events committed since may follow it, so a follower asks again at once rather than waiting
   * for an announcement it may already have had.
   */
  behind?: boolean;
}

/** Reads one page after a position. */
export type ReadPage = (after: GlobalPosition | null, maxCount: number) => Promise<TailPage>;

export interface LogTailOptions {
  /**
   * While the log keeps moving, reads of its end start at most this often: followers that ask in
   * between wait for the next read and share it, so a busy log costs one read per interval for a
   * whole process rather than one per follower per append.
   */
  minReadIntervalMs: number;
  /** Newest events kept for followers that are behind the end by less than this. */
  capacity: number;
}

/**
 * The end of the log as this process last read it, shared by every follower of one store. A read
 * returns the events below the log's horizon after a position, and those never change once read:
 * so a follower that asks for the page after a position the tail has read past is served from
 * memory, and followers at the end share one read of what comes next. The tail reads the end
 * again only when the log was announced to have moved since its last read began (`moved()`), or
 * when that read filled its page. A follower outside what is kept reads its own pages, past the
 * tail.
 */
export class LogTail {
  /** The position the kept events follow; null is the start of the log. */
  private base: GlobalPosition | null = null;
  private events: RecordedEvent[] = [];
  /** Sequence number (from `first` for events[0]) of each kept event's position. */
  private readonly index = new Map<GlobalPosition, number>();
  private first = 0;
  private started = false;
  /** What the last read of the end saw: hidden events beyond it, a full page. */
  private hidden = false;
  private full = false;
  /** Announcements counted so far, and how many had been counted when the last end read began. */
  private announced = 0;
  private readFrom = -1;
  private lastReadAt = -Infinity;
  /**
   * The read of the end under way, if any; `from` is null while it waits for its interval, and
   * `maxCount` is the largest page its followers asked for.
   */
  private pending: { done: Promise<void>; from: number | null; maxCount: number } | null = null;

  constructor(
    private readonly read: ReadPage,
    private readonly options: LogTailOptions,
  ) {}

  /** The log has moved (an append here, a notification from elsewhere, or the store's probe). */
  moved(): void {
    this.announced += 1;
  }

  private get end(): GlobalPosition | null {
    return this.events.at(-1)?.position ?? this.base;
  }

  /** How many kept events lie at or before `after`, or -1 when the tail does not hold it. */
  private offsetOf(after: GlobalPosition | null): number {
    if (!this.started) return -1;
    if (after === this.base) return 0;
    const sequence = after === null ? undefined : this.index.get(after);
    return sequence === undefined ? -1 : sequence - this.first + 1;
  }

  /**
   * The page after `after`: from memory when the tail holds it, else from a read of the end shared
   * with other followers, or, for a follower elsewhere in the log, a read of its own.
   */
  async page(after: GlobalPosition | null, maxCount: number): Promise<TailPage> {
    for (;;) {
      const offset = this.offsetOf(after);
      if (offset < 0) {
        // Ahead of everything read (or nothing read yet): the tail starts again from there.
        if (!this.started || (after !== null && this.isBeyondEnd(after))) {
          this.restartAt(after);
          continue;
        }
        return this.read(after, maxCount);
      }
      const stale = this.announced > this.readFrom || this.full;
      if (offset < this.events.length) {
        const events = this.events.slice(offset, offset + maxCount);
        const toEnd = offset + events.length === this.events.length;
        return { events, hidden: toEnd && this.hidden, behind: toEnd && stale };
      }
      if (!stale) return { events: [], hidden: this.hidden };
      await this.readEnd(maxCount);
    }
  }

  private isBeyondEnd(after: GlobalPosition): boolean {
    const end = this.end;
    return end === null || comparePositions(after, end) > 0;
  }

  /** Forgets what is kept and starts again after `after`. */
  private restartAt(after: GlobalPosition | null): void {
    this.started = true;
    this.base = after;
    this.events = [];
    this.index.clear();
    this.first = 0;
    this.hidden = false;
    this.full = false;
    this.readFrom = -1;
  }

  /**
   * Waits for a read of the end that began after every announcement counted so far: the one under
   * way if it began late enough (or has not begun), else the next.
   */
  private async readEnd(maxCount: number): Promise<void> {
    const needFrom = this.announced;
    for (;;) {
      const pending = this.pending;
      if (!pending) {
        await this.startRead(maxCount).done;
        return;
      }
      if (pending.from === null) {
        pending.maxCount = Math.max(pending.maxCount, maxCount);
        await pending.done;
        return;
      }
      const suits = pending.from >= needFrom;
      await pending.done;
      if (suits) return;
    }
  }

  private startRead(maxCount: number): NonNullable<LogTail['pending']> {
    const pending: NonNullable<LogTail['pending']> = {
      from: null,
      maxCount,
      done: Promise.resolve(),
    };
    pending.done = (async () => {
      const wait = this.lastReadAt + this.options.minReadIntervalMs - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const after = this.end;
      const base = this.base;
      pending.from = this.announced;
      this.lastReadAt = performance.now();
      const page = await this.read(after, pending.maxCount);
      // Started again elsewhere while this read was out: what it read may not follow what is kept.
      if (this.end !== after || this.base !== base) return;
      this.readFrom = pending.from;
      this.keep(page.events);
      this.hidden = page.hidden;
      this.full = page.events.length >= pending.maxCount;
    })().finally(() => {
      if (this.pending === pending) this.pending = null;
    });
    this.pending = pending;
    return pending;
  }

  private keep(events: RecordedEvent[]): void {
    for (const event of events) {
      this.index.set(event.position, this.first + this.events.length);
      this.events.push(event);
    }
    const over = this.events.length - this.options.capacity;
    if (over <= 0) return;
    const dropped = this.events.splice(0, over);
    for (const event of dropped) this.index.delete(event.position);
    this.first += over;
    this.base = dropped.at(-1)!.position;
  }
}
