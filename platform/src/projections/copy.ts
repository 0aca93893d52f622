import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { ClientBase } from 'pg';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

export type CopyValue = string | number | bigint | null;

const SPECIAL = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A value in COPY's text format: NULL as \N; backslash, tab and line breaks escaped. */
export function copyField(value: CopyValue): string {
  if (value === null) return '\\N';
  if (typeof value !== 'string') return String(value);
  return SPECIAL.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]!) : value;
}

/**
 * JSON text as a value in COPY's text format: only its backslashes need escaping, as JSON writes
 * tabs and line breaks inside strings escaped. A value made with JSON.stringify qualifies, and
 * so does PostgreSQL's text of a json or jsonb value.
 */
export function copyJson(json: string): string {
  return json.includes('\\') ? json.replaceAll('\\', '\\\\') : json;
}

/** A row as a line of COPY's text format: values separated by tabs, ending in a line break. */
export function copyLine(row: readonly CopyValue[]): string {
  let line = copyField(row[0]!);
  for (let i = 1; i < row.length; i++) line += '\t' + copyField(row[i]!);
  return line + '\n';
}

/** Rows as COPY's text format takes them: a line each. */
export function copyText(rows: readonly (readonly CopyValue[])[]): string {
  let text = '';
  for (const row of rows) text += copyLine(row);
  return text;
}

/**
 * COPY text made line by line and kept as buffers: a page's rows wait in memory outside the
 * JavaScript heap, which the garbage collector would otherwise copy over and over until the
 * write.
 */
export class CopyLines {
  private readonly chunks: Buffer[] = [];
  private text = '';

  add(line: string): void {
    this.text += line;
    if (this.text.length >= 65_536) this.flush();
  }

  /** Everything added, in order, as buffers. */
  buffers(): Buffer[] {
    this.flush();
    return [...this.chunks];
  }

  private flush(): void {
    if (this.text === '') return;
    this.chunks.push(Buffer.from(this.text));
    this.text = '';
  }
}

/** Writes rows already in COPY's text format (`copyText`, `CopyLines`) with COPY FROM STDIN. */
export async function copyIn(
  client: ClientBase,
  table: string,
  columns: readonly string[],
  text: string | readonly Buffer[],
): Promise<void> {
  if (text.length === 0) return;
  const stream = client.query(
    copyFrom(
      `COPY ${pg.escapeIdentifier(table)} (${columns.map((c) => pg.escapeIdentifier(c)).join(', ')}) FROM STDIN`,
    ),
  );
  await pipeline(Readable.from(typeof text === 'string' ? [text] : text), stream);
}

/**
 * Writes rows with COPY FROM STDIN, PostgreSQL's fastest way in: no per-row statement, and the
 * server parses plain text instead of one large array or JSON document per column.
 */
export async function copyRows(
  client: ClientBase,
  table: string,
  columns: readonly string[],
  rows: CopyValue[][],
): Promise<void> {
  await copyIn(client, table, columns, copyText(rows));
}

/**
 * `text` as a SQL string literal, exactly as node-postgres's `escapeLiteral` writes it (quotes
 * doubled; with a backslash, backslashes doubled and the literal made an E'' string), made by the
 * engine's replace instead of a loop adding one character at a time: projectors send pages of
 * rows as JSON documents of tens of kilobytes this way.
 */
export function quoteLiteral(text: string): string {
  if (text.includes('\\')) return ` E'${text.replace(/['\\]/g, '$&$&')}'`;
  return `'${text.replace(/'/g, "''")}'`;
}

/** An array of text values as a SQL literal of `type[]`, each element quoted: `'{"a","b"}'::uuid[]`. */
export function arrayLiteral(values: readonly string[], type: string): string {
  const elements = values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`);
  return `${quoteLiteral(`{${elements.join(',')}}`)}::${type}[]`;
}
