import type { Request, Response } from 'express';

/**
 * JSON text of a `T` that PostgreSQL built (row_to_json, string_agg), sent as it is: no rows to
 * parse into objects, no objects to stringify again. The type says what the text holds, so a
 * route still answers with its contract's type.
 */
export type JsonText<T> = string & { readonly jsonOf?: T };

/** JSON text made ready to send again and again: its bytes and the ETag Express would give them. */
export interface PreparedJson<T> {
  body: Buffer;
  etag: string | undefined;
  readonly jsonOf?: T;
}

/** `text` as `sendPreparedJson` sends it, with the ETag the app's setting makes of it. */
export function prepareJson<T>(req: Request, text: JsonText<T>): PreparedJson<T> {
  const body = Buffer.from(text, 'utf8');
  const etagOf = req.app.get('etag fn') as ((body: Buffer) => string) | undefined;
  return { body, etag: etagOf?.(body) };
}

/**
 * Sends prepared JSON as `res.json` would send the value it holds: same headers, the same ETag,
 * and 304 to a request that has it already.
 */
export function sendPreparedJson<T>(res: Response, json: PreparedJson<T>): void {
  if (json.etag) res.setHeader('ETag', json.etag);
  res.type('json').send(json.body);
}

/**
 * SQL for a timestamptz as `Date.prototype.toISOString()` writes it: UTC, milliseconds (cut, as
 * node-postgres cuts microseconds), a `Z`.
 */
export const isoTimestampSql = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * SQL for the text of a JSON object: `fields` are [key, SQL of the value's JSON text] in order
 * (keys are constants of the caller's, never data); `more` is SQL for further `,"key":value`
 * text or ''. Concatenation costs PostgreSQL far less per row than row_to_json of a subquery.
 */
export function jsonObjectSql(fields: [key: string, value: string][], more = "''"): string {
  return `(${jsonFieldsSql(fields, '{')} || ${more} || '}')`;
}

/**
 * SQL for the text of `fields` ([key, SQL of the value's JSON text], keys constants of the
 * caller's) as they stand inside a JSON object: `,"key":value` each, the first one opened by
 * `opening` instead of its comma (`'{'` to start an object, `','` to go on with one).
 */
export function jsonFieldsSql(fields: [key: string, value: string][], opening: ',' | '{'): string {
  return fields
    .map(([key, value], index) => `'${index ? ',' : opening}"${key}":' || ${value}`)
    .join(' || ');
}

/** JSON text of any value (a string escaped as JSON escapes it), `null` for NULL. */
export const jsonValueSql = (sql: string) => `coalesce(to_json(${sql})::text, 'null')`;

/** JSON text of a value whose text needs no escaping (uuids, dates, digits), `null` for NULL. */
export const jsonPlainStringSql = (sql: string) => `coalesce('"' || ${sql} || '"', 'null')`;

/** A column of a row as SQL: `b.title` in a query, `title` in a function of the row's columns. */
export type ColumnSql = (name: string) => string;

/**
 * A generated column that keeps JSON text made from other columns of its row, so reads take the
 * text as stored: PostgreSQL remakes it on every INSERT, COPY and UPDATE of the row, and it cannot
 * disagree with them. `text` gives the SQL over the columns as `c` names them; the columns it
 * names are the function's inputs, typed by `types` (the table's column types). The text is made
 * by a function of its own (`<table>_<column>`), created beside the table, declared IMMUTABLE as a
 * generated column asks: to_json, to_char and the text of a uuid are marked STABLE because for
 * some types and formats they read settings. Give `text` only what reads none: the helpers above
 * over text, digits, uuids, dates, and times through `isoTimestampSql` (at UTC). Never
 * `jsonValueSql` of a timestamptz: its text follows the session's time zone, and a stored copy
 * would keep whichever zone wrote the row.
 *
 * The function is PL/pgSQL, not SQL: PostgreSQL inlines a SQL function only when its body is as
 * immutable as the function says, which these STABLE calls are not, and a SQL function it does
 * not inline sets up a query for every row. PL/pgSQL keeps the expression's plan for the session
 * (decision 28).
 */
export function storedJsonText(
  table: string,
  column: string,
  types: Readonly<Record<string, string>>,
  text: (c: ColumnSql) => string,
): { functionDdl: string; columnDdl: string } {
  const inputs: string[] = [];
  const body = text((name) => {
    if (!(name in types)) throw new Error(`${table} has no column ${name}`);
    if (!inputs.includes(name)) inputs.push(name);
    return name;
  });
  const fn = `${table}_${column}`;
  return {
    functionDdl: `
    CREATE FUNCTION ${fn}(${inputs.map((name) => `${name} ${types[name]}`).join(', ')})
      RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
      AS $$ BEGIN RETURN ${body}; END $$;`,
    columnDdl: `,
      ${column} text NOT NULL GENERATED ALWAYS AS (${fn}(${inputs.join(', ')})) STORED`,
  };
}
