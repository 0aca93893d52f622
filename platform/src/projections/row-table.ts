import type { ClientBase } from 'pg';
import type { RecordedEvent } from '../event-store/port.ts';
import { arrayLiteral, copyField, copyIn, quoteLiteral } from './copy.ts';

/** A row as a projector folds it in memory: every column as PostgreSQL's text for it, or null. */
export type TextRow<Column extends string> = Record<Column, string | null>;

/**
 * One read-model table seen as rows keyed by one column, for a projector that folds a page in
 * memory: load the stored rows a page touches, write new rows with COPY, changed ones with one
 * UPDATE. Values travel as text both ways, so a row round-trips exactly.
 */
export function rowTable<Columns extends Record<string, string>>(
  table: string,
  key: keyof Columns & string,
  columns: Columns,
): RowTable<keyof Columns & string> {
  type Column = keyof Columns & string;
  const names = Object.keys(columns) as Column[];
  const select = names.map((c) => (columns[c] === 'text' ? c : `${c}::text AS ${c}`)).join(', ');
  const load = `SELECT ${select} FROM ${table} WHERE ${key} = ANY($1::${columns[key]}[])`;
  /** Rows from a JSON document (`$1`, or a literal), each column typed as the table has it. */
  const recordset = (source: string) =>
    `json_to_recordset(${source}::json) AS r(${names.map((c) => `${c} ${columns[c]}`).join(', ')})`;
  const updateFrom = (source: string) => `UPDATE ${table} AS t SET ${names
    .filter((c) => c !== key)
    .map((c) => `${c} = r.${c}`)
    .join(', ')}
    FROM ${recordset(source)}
    WHERE t.${key} = r.${key}`;
  const update = updateFrom('$1');
  const literal = (rows: TextRow<Column>[]) => quoteLiteral(JSON.stringify(rows));
  const remove = `DELETE FROM ${table} WHERE ${key} = ANY($1::${columns[key]}[])`;
  const [first, ...others] = names;
  /** COPY text, value by value: no array of values made for each row. */
  const text = (rows: TextRow<Column>[]) => {
    let copy = '';
    for (const row of rows) {
      copy += copyField(row[first!]);
      for (const c of others) copy += '\t' + copyField(row[c]);
      copy += '\n';
    }
    return copy;
  };
  return {
    async load(client: ClientBase, keys: Iterable<string>): Promise<Map<string, TextRow<Column>>> {
      const wanted = [...new Set(keys)];
      if (wanted.length === 0) return new Map();
      const result = await client.query<TextRow<Column>>(load, [wanted]);
      return new Map(result.rows.map((row) => [row[key]!, row]));
    },
    text,
    async copy(client: ClientBase, text: string | readonly Buffer[]): Promise<void> {
      await copyIn(client, table, names, text);
    },
    async insert(client: ClientBase, rows: TextRow<Column>[]): Promise<void> {
      await copyIn(client, table, names, text(rows));
    },
    /** Bets, users... an earlier page stored: few per page, so one JSON document carries them. */
    async update(client: ClientBase, rows: TextRow<Column>[]): Promise<void> {
      if (rows.length > 0) await client.query(update, [JSON.stringify(rows)]);
    },
    async remove(client: ClientBase, keys: string[]): Promise<void> {
      if (keys.length > 0) await client.query(remove, [keys]);
    },
    insertStatement: (rows) =>
      `INSERT INTO ${table} (${names.join(', ')})
       SELECT ${names.map((c) => `r.${c}`).join(', ')} FROM ${recordset(literal(rows))}`,
    updateStatement: (rows) => updateFrom(literal(rows)),
    removeStatement: (keys) =>
      `DELETE FROM ${table} WHERE ${key} = ANY(${arrayLiteral(keys, columns[key]!)})`,
    upsertStatement: (rows, newer) =>
      `INSERT INTO ${table} AS t (${names.join(', ')})
       SELECT ${names.map((c) => `r.${c}`).join(', ')} FROM ${recordset(literal(rows))}
       ON CONFLICT (${key}) DO UPDATE SET ${names
         .filter((c) => c !== key)
         .map((c) => `${c} = excluded.${c}`)
         .join(', ')}
       WHERE t.${newer} < excluded.${newer}`,
  };
}

export interface RowTable<Column extends string> {
  load(client: ClientBase, keys: Iterable<string>): Promise<Map<string, TextRow<Column>>>;
  /** New rows in COPY's text format, for `copy`: made ahead of the write. */
  text(rows: TextRow<Column>[]): string;
  /** Writes new rows given as `text` made. */
  copy(client: ClientBase, text: string | readonly Buffer[]): Promise<void>;
  insert(client: ClientBase, rows: TextRow<Column>[]): Promise<void>;
  update(client: ClientBase, rows: TextRow<Column>[]): Promise<void>;
  remove(client: ClientBase, keys: string[]): Promise<void>;
  /** `insert` and `update` as one statement of text each, for `ApplyContext.atCommit`. */
  insertStatement(rows: TextRow<Column>[]): string;
  updateStatement(rows: TextRow<Column>[]): string;
  /** `remove` as one statement of text. */
  removeStatement(keys: string[]): string;
  /**
   * `insertStatement` for rows that may be stored already: a stored row is replaced only where
   * its `newer` column (a revision) is lower than the row given.
   */
  upsertStatement(rows: TextRow<Column>[], newer: Column): string;
}

/**
 * Folds facts onto the stored rows they touch and writes each touched row once: new rows by
 * COPY, changed ones in one UPDATE, removed ones in one DELETE. `evolve` returns the same row when
 * a fact changes nothing (an event applied before), and null when the fact removes the row. Given
 * a live page's `atCommit`, the writes are the same three statements as text, sent with the
 * page's commit: the page then costs its read of the stored rows and its commit, and only its
 * commit when every key it touches `starts` there.
 */
export async function foldRows<Column extends string, Fact>(
  client: ClientBase,
  table: RowTable<Column>,
  facts: Fact[],
  keyOf: (fact: Fact) => string,
  evolve: (row: TextRow<Column> | undefined, fact: Fact) => TextRow<Column> | null | undefined,
  atCommit?: (sql: string) => void,
  starts?: RowStart<Fact, NoInfer<Column>>,
): Promise<void> {
  if (facts.length === 0) return;
  const { fresh, toRead } = keysToRead(facts, keyOf, starts?.startsRow);
  const stored = await table.load(client, toRead);
  const rows = new Map<string, TextRow<Column> | null>(stored);
  for (const fact of facts) {
    const key = keyOf(fact);
    const after = evolve(rows.get(key) ?? undefined, fact);
    if (after !== undefined) rows.set(key, after);
  }
  const created: TextRow<Column>[] = [];
  const started: TextRow<Column>[] = [];
  const changed: TextRow<Column>[] = [];
  const removed: string[] = [];
  for (const [key, row] of rows) {
    const before = stored.get(key);
    if (row === null) {
      if (before || (atCommit && fresh.has(key))) removed.push(key);
    } else if (fresh.has(key)) started.push(row);
    else if (!before) created.push(row);
    else if (row !== before) changed.push(row);
  }
  if (atCommit) {
    if (removed.length > 0) atCommit(table.removeStatement(removed));
    if (created.length > 0) atCommit(table.insertStatement(created));
    if (started.length > 0) atCommit(table.upsertStatement(started, starts!.newer));
    if (changed.length > 0) atCommit(table.updateStatement(changed));
    return;
  }
  // Bulk: a row started in this page cannot be stored yet.
  created.push(...started);
  await table.remove(client, removed);
  if (created.length > 0) await table.insert(client, created);
  await table.update(client, changed);
}

/**
 * The keys a page touches, split: `fresh` where the key's first fact in the page starts its row
 * (folded from nothing, not read), `toRead` for the others.
 */
export function keysToRead<Fact>(
  facts: Fact[],
  keyOf: (fact: Fact) => string,
  startsRow?: (fact: Fact) => boolean,
): { fresh: Set<string>; toRead: Set<string> } {
  const fresh = new Set<string>();
  const toRead = new Set<string>();
  for (const fact of facts) {
    const key = keyOf(fact);
    if (fresh.has(key) || toRead.has(key)) continue;
    (startsRow?.(fact) ? fresh : toRead).add(key);
  }
  return { fresh, toRead };
}

/**
 * What starts a row: a fact that is its key's first (a bet's proposal, revision 0). A page that
 * holds it folds the row from nothing instead of reading it. Live, such a row may be stored
 * already when the page is applied again; it is then written only over an older one, by its
 * `newer` column (a revision), and removed if the page ends with it removed.
 */
export interface RowStart<Fact, Column extends string> {
  startsRow: (fact: Fact) => boolean;
  newer: Column;
}

/** An event a projector reads, with what its rows record of it. */
export interface Fact<Event> {
  event: Event;
  revision: bigint;
  occurredAt: string;
}

/** The page's events this projector reads (`read` gives null for the others). */
export function factsOf<Event>(
  events: RecordedEvent[],
  read: (recorded: RecordedEvent) => Event | null,
): Fact<Event>[] {
  const facts: Fact<Event>[] = [];
  for (const recorded of events) {
    const event = read(recorded);
    if (event)
      facts.push({ event, revision: recorded.revision, occurredAt: recorded.metadata.occurredAt });
  }
  return facts;
}
