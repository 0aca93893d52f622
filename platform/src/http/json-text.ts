import type { Response } from 'express';

/**
 * JSON text of a `T` that PostgreSQL built (row_to_json, string_agg), sent as it is: no rows to
 * parse into objects, no objects to stringify again. The type says what the text holds, so a
 * route still answers with its contract's type.
 */
export type JsonText<T> = string & { readonly jsonOf?: T };

/** Sends JSON text as `res.json` would send the value it holds (same headers, ETag, 304). */
export function sendJsonText<T>(res: Response, text: JsonText<T>): void {
  res.type('json').send(text);
}

/**
 * SQL for a timestamptz as `Date.prototype.toISOString()` writes it: UTC, milliseconds (cut, as
 * node-postgres cuts microseconds), a `Z`.
 */
export const isoTimestampSql = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
