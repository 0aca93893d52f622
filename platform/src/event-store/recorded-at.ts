import type { Pool } from 'pg';

/**
 * When the log recorded each event of a stream, to the microsecond as PostgreSQL keeps it, in
 * UTC (`2026-03-03T14:00:00.000400Z`), by event id. A JavaScript Date, which every read of the
 * store gives, keeps milliseconds only. Empty for a stream the PostgreSQL log does not hold (the
 * EventStoreDB adapter's): its readers fall back to the Date.
 */
export async function recordedTimes(pool: Pool, streamId: string): Promise<Map<string, string>> {
  const { rows } = await pool.query<{ event_id: string; recorded_at: string }>(
    `SELECT event_id,
            to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS recorded_at
       FROM es_events WHERE stream_id = $1`,
    [streamId],
  );
  return new Map(rows.map((row) => [row.event_id, row.recorded_at]));
}
