import type { Pool, PoolClient } from 'pg';
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
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from './port.ts';
import { LogWakeup } from './wakeup.ts';

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

/** False when the connection is gone, so the caller discards it instead of pooling it. */
async function rollbackQuietly(client: PoolClient): Promise<boolean> {
  try {
    await client.query('ROLLBACK');
    return true;
  } catch {
    return false;
  }
}

export interface PostgresEventStoreOptions {
  /** Connection string for the LISTEN connection that wakes followers. */
  connectionString: string;
  /** Safety-net poll when no notification arrives, in ms. */
  pollIntervalMs?: number;
}

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

  async function currentRevision(client: PoolClient, streamId: string): Promise<bigint | null> {
    const result = await client.query<{ stream_revision: string }>(
      'SELECT stream_revision FROM es_events WHERE stream_id = $1 ORDER BY stream_revision DESC LIMIT 1',
      [streamId],
    );
    const row = result.rows[0];
    return row ? BigInt(row.stream_revision) : null;
  }

  async function appendOnce(
    streamId: string,
    events: EventToAppend[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    const client = await pool.connect();
    let released = false;
    try {
      await client.query('BEGIN');
      const current = await currentRevision(client, streamId);
      if (expectedRevision === 'no_stream' && current !== null) {
        throw new ConcurrencyError(streamId, expectedRevision, current);
      }
      if (typeof expectedRevision === 'bigint' && current !== expectedRevision) {
        throw new ConcurrencyError(streamId, expectedRevision, current ?? 'no_stream');
      }
      const first = current === null ? 0n : current + 1n;
      const result = await client.query<{ global_position: string; transaction_text: string }>(
        `INSERT INTO es_events (stream_id, stream_revision, event_id, type, data, metadata)
         SELECT $1, $2::bigint + e.ord - 1, e.id, e.type, e.data, e.metadata
         FROM unnest($3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[])
           WITH ORDINALITY AS e(id, type, data, metadata, ord)
         ORDER BY e.ord
         RETURNING global_position, transaction_id::text AS transaction_text`,
        [
          streamId,
          first.toString(),
          events.map((e) => e.id),
          events.map((e) => e.type),
          events.map((e) => JSON.stringify(e.data)),
          events.map((e) => JSON.stringify(e.metadata)),
        ],
      );
      await client.query('COMMIT');
      // Notified after the commit, not inside it: a transaction that notifies holds a global lock
      // through its commit's disk flush, so concurrent appends would commit one at a time. If
      // this is lost, followers' safety-net poll finds the events.
      await client
        .query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, streamId])
        .catch(() => undefined);
      const last = result.rows.reduce((a, b) =>
        BigInt(a.global_position) > BigInt(b.global_position) ? a : b,
      );
      return {
        nextExpectedRevision: first + BigInt(events.length) - 1n,
        position: formatPosition(BigInt(last.transaction_text), BigInt(last.global_position)),
      };
    } catch (error) {
      // A refused append leaves a healthy connection; only one that cannot roll back is discarded.
      if (!(await rollbackQuietly(client))) {
        client.release(error instanceof Error ? error : new Error(String(error)));
        released = true;
      }
      if (isUniqueViolation(error, 'es_events_stream_revision_unique')) {
        throw new ConcurrencyError(streamId, expectedRevision, 'unknown');
      }
      throw error;
    } finally {
      if (!released) client.release();
    }
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
    const result = await pool.query<EventRow>(
      `SELECT ${columns} FROM es_events
       WHERE stream_id = $1 AND stream_revision >= $2
       ORDER BY stream_revision LIMIT $3`,
      [streamId, (opts.fromRevision ?? 0n).toString(), opts.maxCount ?? null],
    );
    return result.rows.map(toRecorded);
  }

  async function readAll({ after, maxCount }: ReadAllOptions): Promise<RecordedEvent[]> {
    const [tx, position] = after ? parsePosition(after) : [0n, 0n];
    const result = await pool.query<EventRow>(
      `SELECT ${columns} FROM es_events
       WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
         AND (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
       ORDER BY transaction_id, global_position
       LIMIT $3`,
      [tx.toString(), position.toString(), maxCount],
    );
    return result.rows.map(toRecorded);
  }

  /** True when committed events lie beyond `after` but an older open transaction still hides them. */
  async function hasHiddenEvents(after: GlobalPosition | null): Promise<boolean> {
    const [tx, position] = after ? parsePosition(after) : [0n, 0n];
    const result = await pool.query<{ hidden: boolean }>(
      `SELECT EXISTS (
         SELECT 1 FROM es_events WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
       ) AS hidden`,
      [tx.toString(), position.toString()],
    );
    return result.rows[0]?.hidden ?? false;
  }

  async function headPosition(): Promise<GlobalPosition | null> {
    const result = await pool.query<{ transaction_text: string; global_position: string }>(
      `SELECT transaction_id::text AS transaction_text, global_position FROM es_events
       WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
    );
    const row = result.rows[0];
    return row ? formatPosition(BigInt(row.transaction_text), BigInt(row.global_position)) : null;
  }

  function subscribeToAll(opts: SubscribeOptions): Subscription {
    const batchSize = opts.batchSize ?? 500;
    let stopped = false;
    // Set by every notification; cleared before each read, so one that lands between a read
    // and the sleep after it is not lost.
    let notified = false;
    let wake: (() => void) | null = null;
    const unlisten = wakeup.onWake(() => {
      notified = true;
      wake?.();
    });
    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        if (notified || stopped) return resolve();
        const timer = setTimeout(finish, ms);
        function finish() {
          clearTimeout(timer);
          wake = null;
          resolve();
        }
        wake = finish;
      });

    const done = (async () => {
      let after = opts.after ?? null;
      let hiddenBackoff = 5;
      await wakeup.ready();
      while (!stopped) {
        notified = false;
        const events = await readAll({ after, maxCount: batchSize });
        if (stopped) break;
        if (events.length > 0) {
          await opts.onEvents(events);
          after = events[events.length - 1]!.position;
          hiddenBackoff = 5;
          continue;
        }
        if (await hasHiddenEvents(after)) {
          // An older transaction is still open and its end may not notify: look again soon.
          await sleep(hiddenBackoff);
          hiddenBackoff = Math.min(hiddenBackoff * 2, 200);
          continue;
        }
        opts.onCaughtUp?.(after);
        await sleep(pollIntervalMs);
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
    readAll,
    subscribeToAll,
    headPosition,
    async close() {
      await wakeup.close();
    },
  };
}
