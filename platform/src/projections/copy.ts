import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { ClientBase } from 'pg';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** A value in COPY's text format: NULL as \N; backslash, tab and line breaks escaped. */
function field(value: string | number | bigint | null): string {
  if (value === null) return '\\N';
  const text = String(value);
  return /[\\\t\n\r]/.test(text)
    ? text.replace(
        /[\\\t\n\r]/g,
        (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!,
      )
    : text;
}

/**
 * Writes rows with COPY FROM STDIN, PostgreSQL's fastest way in: no per-row statement, and the
 * server parses plain text instead of one large array or JSON document per column.
 */
export async function copyRows(
  client: ClientBase,
  table: string,
  columns: readonly string[],
  rows: (string | number | bigint | null)[][],
): Promise<void> {
  if (rows.length === 0) return;
  const text = rows.map((row) => row.map(field).join('\t')).join('\n') + '\n';
  const stream = client.query(
    copyFrom(
      `COPY ${pg.escapeIdentifier(table)} (${columns.map((c) => pg.escapeIdentifier(c)).join(', ')}) FROM STDIN`,
    ),
  );
  await pipeline(Readable.from([text]), stream);
}
