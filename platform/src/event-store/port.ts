import type { GlobalPosition } from '@wagers/contracts/position';
import type { EventMetadata } from '@wagers/contracts/events/envelope';

/** Zero-based revision of the last event in a stream. */
export type StreamRevision = bigint;

/**
 * What the writer believes about the stream: it does not exist yet, anything goes, or its last
 * event has exactly this revision.
 */
export type ExpectedRevision = 'no_stream' | 'any' | StreamRevision;

export interface EventToAppend {
  /** Unique id of the event (a UUID). The notifier uses it as a job id. */
  id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

export interface RecordedEvent {
  id: string;
  streamId: string;
  revision: StreamRevision;
  position: GlobalPosition;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  recordedAt: Date;
}

export interface AppendResult {
  /** Revision of the last event written. */
  nextExpectedRevision: StreamRevision;
  /** Global position of the last event written. */
  position: GlobalPosition;
}

export interface AppendOptions {
  expectedRevision: ExpectedRevision;
  /**
   * Hash of the stream's event at `expectedRevision`, when the caller has just read it: spares
   * the hash chain a read. Absent when unknown.
   */
  previousHash?: string;
}

export interface ReadAllOptions {
  /** Read events strictly after this position; from the start when null or absent. */
  after?: GlobalPosition | null;
  maxCount: number;
}

export interface ReadAllPagesOptions {
  /** Read events strictly after this position; from the start when null or absent. */
  after?: GlobalPosition | null;
  /** Events per page. */
  pageSize: number;
}

export interface ReadStreamOptions {
  /** First revision to read; 0 when absent. */
  fromRevision?: StreamRevision;
  maxCount?: number;
}

export interface SubscribeOptions {
  /** Deliver events strictly after this checkpoint; from the start when null or absent. */
  after?: GlobalPosition | null;
  /** Called with each page of events, in log order; the next page waits for the promise. */
  onEvents: (events: RecordedEvent[]) => Promise<void>;
  /**
   * Called once the subscription has delivered everything stored when it was last asked (for the
   * PostgreSQL log: with nothing committed hidden behind an open transaction); the next page waits
   * for the promise.
   */
  onCaughtUp?: (position: GlobalPosition | null) => void | Promise<void>;
  /** Called when delivery stops because `onEvents` or the store failed. */
  onError?: (error: unknown) => void;
  batchSize?: number;
}

export interface Subscription {
  /** Stop delivering; resolves once no `onEvents` call is running. */
  stop(): Promise<void>;
  /** Resolves when delivery has ended, by `stop()` or by an error already passed to `onError`. */
  readonly done: Promise<void>;
}

/** The append-only log every service writes to and follows. */
export interface EventStore {
  readonly kind: 'postgres' | 'eventstoredb';
  /**
   * Appends atomically. If the stream's state does not match `expectedRevision`, nothing is
   * written and a `ConcurrencyError` is thrown.
   */
  appendToStream(
    streamId: string,
    events: EventToAppend[],
    options: AppendOptions,
  ): Promise<AppendResult>;
  /** Events of one stream in revision order; an empty list when the stream does not exist. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /**
   * Several whole streams at once, each as `readStream` gives it, in the order asked (a stream
   * asked twice comes twice): what a command reads before deciding, in one round trip where the
   * adapter can.
   */
  readStreams(streamIds: readonly string[]): Promise<RecordedEvent[][]>;
  /** One page of the global log in log order. */
  readAll(options: ReadAllOptions): Promise<RecordedEvent[]>;
  /**
   * The global log after a position, to its end, in pages of `pageSize` in log order: the bulk
   * read a new projection build loads the log with. Each page holds what `readAll` would give at
   * the time it is read; the next page is read while the caller works on this one, and reading
   * ends after a page shorter than `pageSize`. An adapter may read in a cheaper way than
   * `readAll` (the PostgreSQL one streams each page with COPY), but what it yields is the same.
   */
  readAllPages(options: ReadAllPagesOptions): AsyncIterable<RecordedEvent[]>;
  /** Catches up from the checkpoint, then follows new events live until stopped. */
  subscribeToAll(options: SubscribeOptions): Subscription;
  /** Position of the last event a reader of the global log can see now; null for an empty log. */
  headPosition(): Promise<GlobalPosition | null>;
  close(): Promise<void>;
}

export class ConcurrencyError extends Error {
  override readonly name = 'ConcurrencyError';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: StreamRevision | 'no_stream' | 'unknown',
  ) {
    super(`Stream ${streamId} was expected at ${String(expected)} but is at ${String(actual)}`);
  }
}
