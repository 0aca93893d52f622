/** An event as a client proposes it in an append. */
export interface ProposedEvent {
  id: string;
  type: string;
  contentType: string;
  data: Uint8Array;
  customMetadata: Uint8Array;
}

/**
 * An event as the log holds it. Appends outside an explicit transaction commit each event where
 * it is written, so its commit and prepare positions are the same number: `position`.
 */
export interface StoredEvent extends ProposedEvent {
  streamId: string;
  revision: bigint;
  position: bigint;
  /** 100-nanosecond ticks since the Unix epoch, as the server reports `created`. */
  createdTicks: bigint;
}

/** What the writer says about the stream, as in `AppendReq.Options`. */
export type ExpectedState =
  | { kind: 'any' }
  | { kind: 'no_stream' }
  | { kind: 'stream_exists' }
  | { kind: 'revision'; revision: bigint };

export type AppendOutcome =
  | { ok: true; currentRevision: bigint | null; position: bigint | null }
  | { ok: false; currentRevision: bigint | null };

export type ReadStart = 'start' | 'end' | bigint;
export type Direction = 'forwards' | 'backwards';

/**
 * Where the first event lands. A new server writes its own records (chunk header, epoch) before
 * any event, so no event sits at position 0, which clients read as "the start".
 */
const FIRST_POSITION = 256n;
/** Bytes a record takes beyond its names and payloads; positions are byte offsets in the log. */
const RECORD_OVERHEAD = 96n;

const byteLength = (text: string) => BigInt(Buffer.byteLength(text, 'utf8'));

/**
 * Index of the first event whose position is at or after `position`, or, `strictly`, after it.
 */
function firstFrom(events: StoredEvent[], position: bigint, strictly = false): number {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const at = events[middle]!.position;
    if (at < position || (strictly && at === position)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The events of an EventStoreDB node kept in memory: streams, and the global log $all. */
export class InMemoryLog {
  private readonly all: StoredEvent[] = [];
  private readonly streams = new Map<string, StoredEvent[]>();
  private readonly followers = new Set<(events: StoredEvent[]) => void>();
  private nextPosition = FIRST_POSITION;

  /** Writes all events or none, after checking the expected state against the stream's. */
  append(
    streamId: string,
    expected: ExpectedState,
    proposed: ProposedEvent[],
    now: Date,
  ): AppendOutcome {
    const stream = this.streams.get(streamId);
    const current = stream && stream.length > 0 ? stream[stream.length - 1]!.revision : null;
    const matches =
      expected.kind === 'any' ||
      (expected.kind === 'no_stream' && current === null) ||
      (expected.kind === 'stream_exists' && current !== null) ||
      (expected.kind === 'revision' && current === expected.revision);
    if (!matches) return { ok: false, currentRevision: current };
    if (proposed.length === 0) return { ok: true, currentRevision: current, position: null };

    const createdTicks = BigInt(now.getTime()) * 10_000n;
    let revision = current ?? -1n;
    const written = proposed.map((event): StoredEvent => {
      revision += 1n;
      const stored = { ...event, streamId, revision, position: this.nextPosition, createdTicks };
      this.nextPosition +=
        RECORD_OVERHEAD +
        byteLength(streamId) +
        byteLength(event.type) +
        BigInt(event.data.length + event.customMetadata.length);
      return stored;
    });
    const events = stream ?? [];
    events.push(...written);
    this.streams.set(streamId, events);
    this.all.push(...written);
    for (const follower of this.followers) follower(written);
    return { ok: true, currentRevision: revision, position: written[written.length - 1]!.position };
  }

  /** Events of one stream from a revision; null when the stream does not exist. */
  readStream(
    streamId: string,
    from: ReadStart,
    direction: Direction,
    count: bigint,
  ): StoredEvent[] | null {
    const events = this.streams.get(streamId);
    if (!events) return null;
    const limit = Number(count < BigInt(events.length) ? count : BigInt(events.length));
    if (direction === 'forwards') {
      if (from === 'end') return [];
      const first =
        from === 'start' ? 0 : Number(from < BigInt(events.length) ? from : events.length);
      return events.slice(first, first + limit);
    }
    if (from === 'start') return [];
    const last = from === 'end' || from >= BigInt(events.length) ? events.length - 1 : Number(from);
    return events.slice(Math.max(0, last + 1 - limit), last + 1).reverse();
  }

  /**
   * Events of $all. Forwards from a position includes the event at that position; backwards
   * from a position gives the events before it.
   */
  readAll(from: ReadStart, direction: Direction, count: bigint): StoredEvent[] {
    const limit = Number(count < BigInt(this.all.length) ? count : BigInt(this.all.length));
    if (direction === 'forwards') {
      if (from === 'end') return [];
      const first = from === 'start' ? 0 : firstFrom(this.all, from);
      return this.all.slice(first, first + limit);
    }
    if (from === 'start') return [];
    const end = from === 'end' ? this.all.length : firstFrom(this.all, from);
    return this.all.slice(Math.max(0, end - limit), end).reverse();
  }

  /**
   * Up to `count` events of $all strictly after `position` (from the first event when null), as
   * a subscription reads while it catches up.
   */
  readAllAfter(position: bigint | null, count: number): StoredEvent[] {
    const first = position === null ? 0 : firstFrom(this.all, position, true);
    return this.all.slice(first, first + count);
  }

  /** Position of the last event in $all; null while the log is empty. */
  lastPosition(): bigint | null {
    return this.all.at(-1)?.position ?? null;
  }

  /** Hands `follower` every write from now on, as it is committed, until stopped. */
  follow(follower: (events: StoredEvent[]) => void): () => void {
    this.followers.add(follower);
    return () => this.followers.delete(follower);
  }
}
