import type { Pool } from 'pg';
import type { User } from '@wagers/contracts/api/user';
import {
  isoTimestampSql,
  jsonFieldsSql,
  jsonPlainStringSql,
  jsonValueSql,
  type ColumnSql,
} from '@wagers/platform/http/json-text';
import {
  toUser,
  unknownUserJsonSql,
  userColumns,
  userJsonSql,
  type UserRow,
} from '../users/user-row.ts';

/** The people a bet names. */
const people = ['creator', 'opponent', 'winner'] as const;

/**
 * The three runs of a bet's own fields in its JSON text, between the people it names (which come
 * from the users read model) and the invitee (shown to the creator only), over the columns as `c`
 * names them, in the order `Bet` lists them. Amounts as "12.50" and exact cents, dates as
 * YYYY-MM-DD, times as toISOString writes them. Each bets build keeps them as generated columns
 * (`json_<run>`, bets.schema.ts; decision 28).
 */
export const betJsonRuns = {
  start: (c: ColumnSql) =>
    jsonFieldsSql(
      [
        ['id', jsonPlainStringSql(c('id'))],
        ['title', jsonValueSql(c('title'))],
        ['description', jsonValueSql(c('description'))],
        ['wagerType', jsonValueSql(c('wager_type'))],
        [
          'wagerAmount',
          jsonPlainStringSql(
            `(${c('wager_amount_cents')} / 100) || '.' || lpad((${c('wager_amount_cents')} % 100)::text, 2, '0')`,
          ),
        ],
        ['wagerAmountCents', `coalesce(${c('wager_amount_cents')}::text, 'null')`],
        ['wagerDescription', jsonValueSql(c('wager_description'))],
        ['endDate', jsonPlainStringSql(`to_char(${c('end_date')}, 'YYYY-MM-DD')`)],
        ['validationMode', jsonValueSql(c('validation_mode'))],
        ['status', jsonValueSql(c('status'))],
        ['creatorId', jsonPlainStringSql(c('creator_id'))],
        ['opponentId', jsonPlainStringSql(c('opponent_id'))],
      ],
      '{',
    ),
  resolutions: (c: ColumnSql) =>
    jsonFieldsSql(
      [
        ['creatorResolution', jsonValueSql(c('creator_resolution'))],
        ['opponentResolution', jsonValueSql(c('opponent_resolution'))],
        ['winnerId', jsonPlainStringSql(c('winner_id'))],
      ],
      ',',
    ),
  times: (c: ColumnSql) =>
    jsonFieldsSql(
      [
        ['createdAt', jsonPlainStringSql(isoTimestampSql(c('created_at')))],
        ['updatedAt', jsonPlainStringSql(isoTimestampSql(c('updated_at')))],
      ],
      ',',
    ),
};

type Run = keyof typeof betJsonRuns;

/** The generated column of `rm_bets` that keeps a run (bets.schema.ts). */
export const betJsonColumn = (run: string) => `json_${run}`;

/** Each run's SQL over the bet `b`, as `runSql` makes it from the run's name and text. */
const runsOverB = (runSql: (run: Run, text: (c: ColumnSql) => string) => string) =>
  Object.fromEntries(
    Object.entries(betJsonRuns).map(([run, text]) => [run, runSql(run as Run, text)]),
  ) as Record<Run, string>;

/** A person's user object: null without one, the id alone while the users read model lacks it. */
const personJsonSql = (person: (typeof people)[number]) =>
  `CASE WHEN b.${person}_id IS NULL THEN 'null'
        WHEN ${person}.id IS NULL THEN ${unknownUserJsonSql(`b.${person}_id`, 'b.created_at')}
        ELSE ${person}.json END`;

/**
 * The bet `b` as JSON text of a `Bet`, for the viewer whose id is `$1` (only the creator sees
 * the invitee), its own fields' runs given as SQL, each person joined as `creator`, `opponent`
 * and `winner` with their user object's text as `json`.
 */
const betJsonFrom = (own: Record<Run, string>) =>
  `(${own.start} || ',"creator":' || ${personJsonSql('creator')} || ',"opponent":' || ${personJsonSql('opponent')}
    || ${own.resolutions} || ',"winner":' || ${personJsonSql('winner')}
    || ',"invitee":' || ${jsonValueSql('CASE WHEN b.creator_id = $1 THEN b.invitee END')}
    || ${own.times} || '}')`;

/** How a statement makes the bets' JSON text; see `betsJsonStatement`. */
export type BetsJsonForm = 'prerendered' | 'inline';

/** The SQL of a bet's own fields' runs in each form. */
const ownRunsSql: Record<BetsJsonForm, Record<Run, string>> = {
  prerendered: runsOverB((run) => `b.${betJsonColumn(run)}`),
  inline: runsOverB((_run, text) => text((name) => `b.${name}`)),
};

/**
 * A statement over the bets `where` picks (conditions on rm_bets) as `b`, answering
 * `select(json)`, where `json` is the SQL of each bet's JSON text: field by field what `Bet`
 * says, in its order, a person the users read model has not caught up with as the id alone
 * (unknown since the bet was made). `prerendered` reads the bet's own fields as its row keeps
 * them (decision 28); `inline` makes them in the query, for a live build made before those
 * columns (while a deploy's new version is built).
 *
 * Each person the bets name is joined as `creator`, `opponent` and `winner` with the JSON text of
 * their user object, built once per person however many bets name them. The people are looked up
 * by key from an array of their ids: with `IN (SELECT ...)` the plan PostgreSQL keeps for a
 * prepared statement hashes the ids and reads every user.
 */
export function betsJsonStatement(
  form: BetsJsonForm,
  where: string,
  select: (json: string) => string,
): string {
  return `WITH b AS (SELECT * FROM rm_bets WHERE ${where}),
    people AS (SELECT u.id, ${userJsonSql('u')} AS json FROM rm_users u
                WHERE u.id = ANY (ARRAY(${people.map((person) => `SELECT ${person}_id FROM b`).join(' UNION ')})))
    SELECT ${select(betJsonFrom(ownRunsSql[form]))}
      FROM b ${people.map((person) => `LEFT JOIN people ${person} ON ${person}.id = b.${person}_id`).join(' ')}`;
}

/** Users by id, for the creator, opponent and winner objects of a page of bets. */
export async function loadUsers(
  pool: Pool,
  ids: Iterable<string | null>,
): Promise<Map<string, User>> {
  const wanted = [...new Set([...ids].filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const result = await pool.query<UserRow>(
    `SELECT ${userColumns} FROM rm_users WHERE id = ANY($1::uuid[])`,
    [wanted],
  );
  return new Map(result.rows.map((row) => [row.id, toUser(row)]));
}
