import type { Pool } from 'pg';
import pg from 'pg';
import { formatPosition, parsePosition, type GlobalPosition } from '@wagers/contracts/position';
import type { EventMetadata } from '@wagers/contracts/events/envelope';
import {
  ConcurrencyError,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type ReadAllOptions,
  type ReadAllPagesOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from './port.ts';
import { to as copyTo } from 'pg-copy-streams';
import { readAhead } from './batch-reader.ts';
import { CopiedEvent } from './copied-event.ts';
import { LogTail } from './log-tail.ts';
import { LogProbe, LogWakeup } from './wakeup.ts';

export const EVENTS_CHANNEL = 'wagers_events';
const UNIQUE_VIOLATION = '23505';
const MAX_ANY_RETRIES = 10;

interface EventRow {
  global_position: string;
  transaction_text: string;
  stream_id: string;
  stream_revision: string;
  event_id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: Date;
}

// The text form gets a name of its own: ORDER BY transaction_id would otherwise sort by the output
// column, as text, where "100" comes before "99" and a reader paging by position skips events.
const columns =
  'global_position, transaction_id::text AS transaction_text, stream_id, stream_revision, event_id, type, data, metadata, recorded_at';

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: BigInt(row.stream_revision),
    position: formatPosition(BigInt(row.transaction_text), BigInt(row.global_position)),
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    recordedAt: row.recorded_at,
  };
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  return (
    error instanceof pg.DatabaseError &&
    error.code === UNIQUE_VIOLATION &&
    error.constraint === constraint
  );
}

/** What COPY's text format writes for a backslash, tab and line break (and never anything else here). */
const COPY_ESCAPES: Record<string, string> = {
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};
const unescapeCopy = (text: string): string =>
  text.includes('\\') ? text.replace(/\\(.)/g, (_, c: string) => COPY_ESCAPES[c] ?? c) : text;

/**
 * One page of the log as COPY's text, the bulk read's query: no row objects or type parsers on
 * the way. COPY takes no parameters, so the position (two numbers) and the page size are written
 * into the statement. The timestamp comes in the ISO style (with its offset) that node-postgres
 * also expects, and which Date reads as it is.
 */
function copyPageQuery(after: GlobalPosition | null, maxCount: number): string {
  const [tx, position] = after ? parsePosition(after) : [0n, 0n];
  return `COPY (
    SELECT transaction_id, global_position, stream_id, stream_revision, event_id, type, data, metadata, recorded_at
    FROM es_events
    WHERE transaction_id < es_log_horizon()
      AND (transaction_id, global_position) > ('${tx}'::xid8, ${position}::bigint)
    ORDER BY transaction_id, global_position
    LIMIT ${Math.trunc(maxCount)}
  ) TO STDOUT`;
}

/** The events in COPY's text for whole lines (each ends with a line break), added to `events`. */
function fromCopyText(text: string, events: RecordedEvent[]): void {
  // Field by field with indexOf: no line or array of fields made for each event.
  let start = 0;
  const next = () => {
    const end = text.indexOf('\t', start);
    const value = text.slice(start, end);
    start = end + 1;
    return value;
  };
  while (start < text.length) {
    const transaction = next();
    const position = next();
    // Where the stream id, revision, id, type and data columns begin and end (see CopiedEvent).
    const from = start;
    const streamId = next();
    const revision = next();
    const id = next();
    const type = next();
    const data = next();
    const to = start - 1;
    const metadata = next();
    const end = text.indexOf('\n', start);
    const recordedAt = text.slice(start, end);
    start = end + 1;
    events.push(
      new CopiedEvent(
        id,
        unescapeCopy(streamId),
        BigInt(revision),
        `${transaction}-${position}`,
        unescapeCopy(type),
        unescapeCopy(data),
        JSON.parse(unescapeCopy(metadata)) as EventMetadata,
        new Date(recordedAt),
        text,
        from,
        to,
      ),
    );
  }
}

const LINE_BREAK = 0x0a;
/**
 * COPY's output is parsed once this much has arrived: each event keeps a slice of the text it was
 * parsed from (see CopiedEvent), and a text this long is made outside the young generation, so
 * collections of it do not copy the page's text over and over while the page waits to be folded.
 */
const PARSE_AT_BYTES = 512 * 1024;

/**
 * The events of COPY's output as it arrives: each chunk's whole lines are parsed at once (a line
 * break is never part of a longer UTF-8 character), the rest waits for the next chunk. So the
 * page is parsed while the server still sends it, not all in one go at its end.
 */
async function fromCopyStream(chunks: AsyncIterable<Buffer>): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  let held: Buffer[] = [];
  let size = 0;
  const parse = (final: boolean) => {
    const data = held.length === 1 ? held[0]! : Buffer.concat(held, size);
    const end = data.lastIndexOf(LINE_BREAK);
    if (end < 0) {
      if (final && data.length > 0) throw new Error('The log page ended inside a line');
      held = [data];
      return;
    }
    fromCopyText(data.toString('utf8', 0, end + 1), events);
    const rest = data.subarray(end + 1);
    if (final && rest.length > 0) throw new Error('The log page ended inside a line');
    held = rest.length > 0 ? [rest] : [];
    size = rest.length;
  };
  for await (const chunk of chunks) {
    held.push(chunk);
    size += chunk.length;
    if (size >= PARSE_AT_BYTES) parse(false);
  }
  if (size > 0) parse(true);
  return events;
}

/**
 * An append in one statement, so one round trip. The first revision comes from the expectation:
 * 0 for a new stream, the one after the head for "any", and the one after an exact revision only
 * if that revision exists (else nothing is inserted and no row comes back). The unique constraint
 * then decides every race: two writers after the same revision cannot both insert the next one.
 *
 * One prepared statement per expectation, each simple enough that PostgreSQL soon plans it once
 * for any parameters. A single statement choosing its start by a CASE over the expectation was
 * planned again on every append, because a plan made for the given expectation always looked
 * cheaper than one for all three.
 */
const appendStatement = (name: string, start: string) => ({
  name,
  text: `INSERT INTO es_events (stream_id, stream_revision, event_id, type, data, metadata)
    SELECT $1, start.first + e.ord - 1, e.id, e.type, e.data, e.metadata
    FROM (${start}) AS start(first),
      unnest($2::uuid[], $3::text[], $4::jsonb[], $5::jsonb[])
        WITH ORDINALITY AS e(id, type, data, metadata, ord)
    ORDER BY e.ord
    RETURNING stream_revision, global_position, transaction_id::text AS transaction_text`,
});
const APPEND = {
  no_stream: appendStatement('es_append_new', 'SELECT 0::bigint'),
  any: appendStatement(
    'es_append_any',
    'SELECT coalesce(max(stream_revision), -1) + 1 FROM es_events WHERE stream_id = $1',
  ),
  exact: appendStatement(
    'es_append_exact',
    `SELECT stream_revision + 1 FROM es_events
      WHERE stream_id = $1 AND stream_revision = $6::bigint`,
  ),
};

/** Stream reads, prepared: a command reads its streams on every request. */
const READ_STREAM = {
  name: 'es_read_stream',
  text: `SELECT ${columns} FROM es_events
    WHERE stream_id = $1 AND stream_revision >= $2
    ORDER BY stream_revision LIMIT $3`,
};
const READ_STREAMS = {
  name: 'es_read_streams',
  text: `SELECT ${columns} FROM es_events WHERE stream_id = ANY($1::text[])
    ORDER BY stream_id, stream_revision`,
};

/**
 * One page for a follower, and whether committed events lie beyond it that an older open
 * transaction still hides: both from one snapshot, in one round trip. The page's columns are null
 * on the single row that comes back when it is empty. Rows are read below es_log_horizon(), the
 * oldest transaction still open that may append: the snapshot's own xmin would also wait for
 * transactions of other databases and for the projectors' page transactions, and under load some
 * page is nearly always open, so followers were held back by each other.
 *
 * Hidden events exist exactly when the newest visible event is at or past the horizon and past
 * the follower's position, so that is what is asked: the newest event is one step down the log
 * order index. The statement is prepared, and PostgreSQL soon runs it with a generic plan, blind
 * to the parameters' values; asked as "does any event lie past the position and the horizon", that
 * plan scanned the whole log on every read, as the log grew.
 */
const FOLLOW_PAGE = {
  name: 'es_follow_page',
  text: `WITH horizon AS MATERIALIZED (SELECT es_log_horizon() AS below),
  newest AS MATERIALIZED (
    SELECT transaction_id, global_position FROM es_events
    ORDER BY transaction_id DESC, global_position DESC LIMIT 1
  )
  SELECT coalesce((
    SELECT n.transaction_id >= h.below
       AND (n.transaction_id, n.global_position) > ($1::text::xid8, $2::bigint)
    FROM newest n, horizon h), false) AS hidden, p.* FROM (SELECT 1) one
  LEFT JOIN LATERAL (
    SELECT transaction_id, ${columns} FROM es_events
    WHERE transaction_id < (SELECT below FROM horizon)
      AND (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
    ORDER BY transaction_id, global_position
    LIMIT $3
  ) p ON true
  ORDER BY p.transaction_id, p.global_position`,
};

/** The prepared statements a follower reads the log's end with (their plans are tested). */
export const FOLLOW_STATEMENTS = [FOLLOW_PAGE];

export interface PostgresEventStoreOptions {
  /** Connection string for the LISTEN connection that wakes followers. */
  connectionString: string;
  /** Safety-net poll when no notification arrives, in ms. */
  pollIntervalMs?: number;
  /** While the log keeps moving, the shortest time between two reads of its end, in ms. */
  followIntervalMs?: number;
  /**
   * The pool appends go through, when not `pool`: one whose backends run at a lower CPU priority
   * than the followers' reads, on a host they share (decision 35).
   */
  appendPool?: Pool;
}

/** Newest events the store keeps in memory for its followers. */
const TAIL_CAPACITY = 10_000;

/**
 * Event store on one PostgreSQL table. The unique constraint on (stream_id, stream_revision)
 * decides every conflicting append; LISTEN/NOTIFY wakes followers.
 */
export function createPostgresEventStore(
  pool: Pool,
  options: PostgresEventStoreOptions,
): EventStore {
  const wakeup = new LogWakeup(options.connectionString, EVENTS_CHANNEL);
  const pollIntervalMs = options.pollIntervalMs ?? 2000;
  // Looks at the head for the followers that wait.
  const probe = new LogProbe(() => headPosition(), pollIntervalMs);
  // One read of the log's end for every follower in the process (see LogTail).
  const tail = new LogTail((after, maxCount) => followPage(after, maxCount), {
    minReadIntervalMs: options.followIntervalMs ?? 5,
    capacity: TAIL_CAPACITY,
  });
  let tailListening = false;
  const appendPool = options.appendPool ?? pool;

  async function appendOnce(
    streamId: string,
    events: EventToAppend[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    let rows: { stream_revision: string; global_position: string; transaction_text: string }[];
    try {
      const result = await appendPool.query<(typeof rows)[number]>({
        ...APPEND[typeof expectedRevision === 'bigint' ? 'exact' : expectedRevision],
        values: [
          streamId,
          events.map((e) => e.id),
          events.map((e) => e.type),
          events.map((e) => JSON.stringify(e.data)),
          events.map((e) => JSON.stringify(e.metadata)),
          ...(typeof expectedRevision === 'bigint' ? [expectedRevision.toString()] : []),
        ],
      });
      rows = result.rows;
    } catch (error) {
      if (isUniqueViolation(error, 'es_events_stream_revision_unique')) {
        throw new ConcurrencyError(streamId, expectedRevision, 'unknown');
      }
      throw error;
    }
    // No row: the expected revision is not in the stream.
    if (rows.length === 0) throw new ConcurrencyError(streamId, expectedRevision, 'unknown');
    // Announced after the commit, not inside it: a transaction that notifies holds a global lock
    // through its commit's disk flush, so concurrent appends would commit one at a time.
    wakeup.announce();
    const last = rows.reduce((a, b) =>
      BigInt(a.global_position) > BigInt(b.global_position) ? a : b,
    );
    return {
      nextExpectedRevision: BigInt(last.stream_revision),
      position: formatPosition(BigInt(last.transaction_text), BigInt(last.global_position)),
    };
  }

  async function appendToStream(
    streamId: string,
    events: EventToAppend[],
    { expectedRevision }: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('Nothing to append');
    for (let attempt = 1; ; attempt++) {
      try {
        return await appendOnce(streamId, events, expectedRevision);
      } catch (error) {
        // "any" promises success whatever the stream holds, so a lost race is tried again.
        if (
          error instanceof ConcurrencyError &&
          expectedRevision === 'any' &&
          attempt < MAX_ANY_RETRIES
        ) {
          continue;
        }
        throw error;
      }
    }
  }

  async function readStream(
    streamId: string,
    opts: ReadStreamOptions = {},
  ): Promise<RecordedEvent[]> {
    const result = await pool.query<EventRow>({
      ...READ_STREAM,
      values: [streamId, (opts.fromRevision ?? 0n).toString(), opts.maxCount ?? null],
    });
    return result.rows.map(toRecorded);
  }

  async function readStreams(streamIds: readonly string[]): Promise<RecordedEvent[][]> {
    if (streamIds.length === 0) return [];
    const result = await pool.query<EventRow>({
      ...READ_STREAMS,
      values: [[...new Set(streamIds)]],
    });
    const byStream = new Map<string, RecordedEvent[]>();
    for (const row of result.rows) {
      const stream = byStream.get(row.stream_id) ?? [];
      stream.push(toRecorded(row));
      byStream.set(row.stream_id, stream);
    }
    return streamIds.map((id) => byStream.get(id) ?? []);
  }

  async function readAll({ after, maxCount }: ReadAllOptions): Promise<RecordedEvent[]> {
    const [tx, position] = after ? parsePosition(after) : [0n, 0n];
    const result = await pool.query<EventRow>(
      `SELECT ${columns} FROM es_events
       WHERE transaction_id < es_log_horizon()
         AND (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
       ORDER BY transaction_id, global_position
       LIMIT $3`,
      [tx.toString(), position.toString(), maxCount],
    );
    return result.rows.map(toRecorded);
  }

  async function copyPage({ after, maxCount }: ReadAllOptions): Promise<RecordedEvent[]> {
    const client = await pool.connect();
    try {
      return await fromCopyStream(client.query(copyTo(copyPageQuery(after ?? null, maxCount))));
    } finally {
      client.release();
    }
  }

  /** A follower's next page, and whether an open transaction hides committed events beyond it. */
  async function followPage(
    after: GlobalPosition | null,
    maxCount: number,
  ): Promise<{ events: RecordedEvent[]; hidden: boolean }> {
    const [tx, position] = after ? parsePosition(after) : [0n, 0n];
    const result = await pool.query<{ hidden: boolean } & Partial<EventRow>>({
      ...FOLLOW_PAGE,
      values: [tx.toString(), position.toString(), maxCount],
    });
    const rows = result.rows;
    return {
      hidden: rows[0]?.hidden ?? false,
      events: rows
        .filter((row) => row.global_position != null)
        .map((row) => toRecorded(row as EventRow)),
    };
  }

  async function headPosition(): Promise<GlobalPosition | null> {
    const result = await pool.query<{ transaction_text: string; global_position: string }>(
      `SELECT transaction_id::text AS transaction_text, global_position FROM es_events
       WHERE transaction_id < es_log_horizon()
       ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
    );
    const row = result.rows[0];
    return row ? formatPosition(BigInt(row.transaction_text), BigInt(row.global_position)) : null;
  }

  function subscribeToAll(opts: SubscribeOptions): Subscription {
    const batchSize = opts.batchSize ?? 500;
    // The tail hears of every announcement before any follower is woken by it.
    if (!tailListening) {
      tailListening = true;
      wakeup.onWake(() => tail.moved());
    }
    let stopped = false;
    // Set by every notification; cleared before each read, so one that lands between a read
    // and the sleep after it is not lost.
    let notified = false;
    let wake: (() => void) | null = null;
    const unlisten = wakeup.onWake(() => {
      notified = true;
      wake?.();
    });
    /** Waits for a notification, or for the store's probe to see events past `after`. */
    const waitFor = (after: GlobalPosition | null, held: boolean) =>
      new Promise<void>((resolve) => {
        if (notified || stopped) return resolve();
        const finish = () => {
          wake = null;
          probe.remove(waiter);
          resolve();
        };
        const waiter = {
          after,
          held,
          wake: () => {
            tail.moved();
            finish();
          },
        };
        wake = finish;
        probe.add(waiter);
      });

    const done = (async () => {
      let after = opts.after ?? null;
      await wakeup.ready();
      while (!stopped) {
        notified = false;
        const { events, hidden, behind } = await tail.page(after, batchSize);
        if (stopped) break;
        if (events.length > 0) {
          await opts.onEvents(events);
          after = events[events.length - 1]!.position;
          // A short page was everything readable when it was read, and anything committed since
          // was announced, so the wait below then returns at once: unless the page was kept from
          // a read older than an announcement this follower has already taken.
          if (events.length === batchSize || behind) continue;
        }
        if (hidden) {
          // An older transaction is still open. If it is an append, its announcement wakes us;
          // anything else ends unannounced, and the store's probe looks for us (one query for
          // every follower, after pauses that grow): a long transaction elsewhere must not keep
          // followers polling.
          await waitFor(after, true);
          continue;
        }
        await opts.onCaughtUp?.(after);
        // The safety net for a lost notification is the probe's slow look.
        await waitFor(after, false);
      }
    })()
      .catch((error: unknown) => {
        opts.onError?.(error);
      })
      .finally(unlisten);

    return {
      done,
      async stop() {
        stopped = true;
        wake?.();
        await done;
      },
    };
  }

  return {
    kind: 'postgres',
    appendToStream,
    readStream,
    readStreams,
    readAll,
    readAllPages: (options: ReadAllPagesOptions) => readAhead(copyPage, options),
    subscribeToAll,
    headPosition,
    async close() {
      probe.close();
      await wakeup.close();
    },
  };
}
