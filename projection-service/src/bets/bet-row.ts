import type { Pool } from 'pg';
import type { User } from '@wagers/contracts/api/user';
import {
  isoTimestampSql,
  jsonFieldsSql,
  jsonPlainStringSql,
  jsonValueSql,
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
 * `${betsWithPeople(where)} SELECT ${betJsonSql} FROM bet_people`: the bets `where` picks
 * (conditions on rm_bets) as `b`, each person they name as `creator`, `opponent` and `winner`
 * with the JSON text of their user object, built once per person however many bets name them.
 * The people are looked up by key from an array of their ids: with `IN (SELECT ...)` the plan
 * PostgreSQL keeps for a prepared statement hashes the ids and reads every user.
 */
export const betsWithPeople = (where: string) => `WITH b AS (SELECT * FROM rm_bets WHERE ${where}),
  people AS (SELECT u.id, ${userJsonSql('u')} AS json FROM rm_users u
              WHERE u.id = ANY (ARRAY(${people.map((person) => `SELECT ${person}_id FROM b`).join(' UNION ')})))`;

export const betPeopleJoin = `b ${people
  .map((person) => `LEFT JOIN people ${person} ON ${person}.id = b.${person}_id`)
  .join(' ')}`;

/** A column of rm_bets, as the caller names it: `b.title` in a query, `title` in a function. */
type Column = (name: string) => string;

/**
 * The three runs of a bet's own fields in its JSON text, between the people it names (which come
 * from the users read model) and the invitee (shown to the creator only): each a list of
 * [key, SQL of the value's JSON text] over the row's columns, in the order `Bet` lists them.
 * Amounts as "12.50" and exact cents, dates as YYYY-MM-DD, times as toISOString writes them.
 */
const ownFields = {
  start: (c: Column): [string, string][] => [
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
  resolutions: (c: Column): [string, string][] => [
    ['creatorResolution', jsonValueSql(c('creator_resolution'))],
    ['opponentResolution', jsonValueSql(c('opponent_resolution'))],
    ['winnerId', jsonPlainStringSql(c('winner_id'))],
  ],
  times: (c: Column): [string, string][] => [
    ['createdAt', jsonPlainStringSql(isoTimestampSql(c('created_at')))],
    ['updatedAt', jsonPlainStringSql(isoTimestampSql(c('updated_at')))],
  ],
};

/** The SQL of each run's text over columns named by `c`: the start opens the object. */
const ownRuns = (c: Column) => ({
  start: jsonFieldsSql(ownFields.start(c), '{'),
  resolutions: jsonFieldsSql(ownFields.resolutions(c), ','),
  times: jsonFieldsSql(ownFields.times(c), ','),
});

/** The columns each run reads, with their types, in the order its function takes them. */
const runColumns: Record<keyof typeof ownFields, [string, string][]> = {
  start: [
    ['id', 'uuid'],
    ['title', 'text'],
    ['description', 'text'],
    ['wager_type', 'text'],
    ['wager_amount_cents', 'bigint'],
    ['wager_description', 'text'],
    ['end_date', 'date'],
    ['validation_mode', 'text'],
    ['status', 'text'],
    ['creator_id', 'uuid'],
    ['opponent_id', 'uuid'],
  ],
  resolutions: [
    ['creator_resolution', 'text'],
    ['opponent_resolution', 'text'],
    ['winner_id', 'uuid'],
  ],
  times: [
    ['created_at', 'timestamptz'],
    ['updated_at', 'timestamptz'],
  ],
};

const runs = Object.keys(runColumns) as (keyof typeof ownFields)[];

/**
 * For the bets table of a build: each run's text kept as a generated column (`json_start`,
 * `json_resolutions`, `json_times`), made by a function of the build's own. So a list reads each
 * bet's own fields as text made when the row was written, and PostgreSQL builds only the people
 * and the invitee per read. The functions are IMMUTABLE, which PostgreSQL asks of a generated
 * column: to_json, to_char and the text of a uuid are marked STABLE for other types and formats,
 * but for these (text, a fixed numeric pattern, UTC times) they depend on nothing but their input.
 */
export const betJsonRunsDdl = {
  functions: runs
    .map(
      (run) => `
    CREATE FUNCTION rm_bets_json_${run}(${runColumns[run].map(([name, type]) => `${name} ${type}`).join(', ')})
      RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT ${ownRuns((name) => name)[run]} $$;`,
    )
    .join(''),
  columns: runs
    .map(
      (run) => `,
      json_${run} text NOT NULL GENERATED ALWAYS AS
        (rm_bets_json_${run}(${runColumns[run].map(([name]) => name).join(', ')})) STORED`,
    )
    .join(''),
};

/** A person's user object: null without one, the id alone while the users read model lacks it. */
const personJsonSql = (person: (typeof people)[number]) =>
  `CASE WHEN b.${person}_id IS NULL THEN 'null'
        WHEN ${person}.id IS NULL THEN ${unknownUserJsonSql(`b.${person}_id`, 'b.created_at')}
        ELSE ${person}.json END`;

/** The bet `b` as JSON text of a `Bet`, its own fields' runs given as SQL. */
const betJsonFrom = (own: Record<keyof typeof ownFields, string>) =>
  `(${own.start} || ',"creator":' || ${personJsonSql('creator')} || ',"opponent":' || ${personJsonSql('opponent')}
    || ${own.resolutions} || ',"winner":' || ${personJsonSql('winner')}
    || ',"invitee":' || ${jsonValueSql('CASE WHEN b.creator_id = $1 THEN b.invitee END')}
    || ${own.times} || '}')`;

/**
 * `SELECT ${betJsonSql} FROM ${betPeopleJoin}`: the bet as JSON text of a `Bet`, for the viewer
 * whose id is `$1` (only the creator sees the invitee), field by field what `Bet` says in its
 * order, a person the users read model has not caught up with as the id alone (unknown since the
 * bet was made). `prerendered` reads the bet's own fields from the generated columns; `inline`
 * makes them in the query, for a live build made before those columns (a deploy's new version
 * being built meanwhile).
 */
export const betJsonSql = {
  prerendered: betJsonFrom({
    start: 'b.json_start',
    resolutions: 'b.json_resolutions',
    times: 'b.json_times',
  }),
  inline: betJsonFrom(ownRuns((name) => `b.${name}`)),
};

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
