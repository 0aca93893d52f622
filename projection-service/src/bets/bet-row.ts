import type { Pool } from 'pg';
import type { User } from '@wagers/contracts/api/user';
import {
  isoTimestampSql,
  jsonObjectSql,
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

/** A person's user object: null without one, the id alone while the users read model lacks it. */
const personJsonSql = (person: (typeof people)[number]) =>
  `CASE WHEN b.${person}_id IS NULL THEN 'null'
        WHEN ${person}.id IS NULL THEN ${unknownUserJsonSql(`b.${person}_id`, 'b.created_at')}
        ELSE ${person}.json END`;

/**
 * `SELECT ${betJsonSql} FROM ${betPeopleJoin}`: the bet as JSON text of a `Bet`, for the viewer
 * whose id is `$1` (only the creator sees the invitee). Field by field what `Bet` says, in its
 * order: amounts as "12.50" and exact cents, dates as YYYY-MM-DD, times as toISOString writes
 * them, a person the users read model has not caught up with as the id alone (unknown since the
 * bet was made).
 */
export const betJsonSql = jsonObjectSql([
  ['id', jsonPlainStringSql('b.id')],
  ['title', jsonValueSql('b.title')],
  ['description', jsonValueSql('b.description')],
  ['wagerType', jsonValueSql('b.wager_type')],
  [
    'wagerAmount',
    jsonPlainStringSql(
      `(b.wager_amount_cents / 100) || '.' || lpad((b.wager_amount_cents % 100)::text, 2, '0')`,
    ),
  ],
  ['wagerAmountCents', `coalesce(b.wager_amount_cents::text, 'null')`],
  ['wagerDescription', jsonValueSql('b.wager_description')],
  ['endDate', jsonPlainStringSql(`to_char(b.end_date, 'YYYY-MM-DD')`)],
  ['validationMode', jsonValueSql('b.validation_mode')],
  ['status', jsonValueSql('b.status')],
  ['creatorId', jsonPlainStringSql('b.creator_id')],
  ['opponentId', jsonPlainStringSql('b.opponent_id')],
  ['creator', personJsonSql('creator')],
  ['opponent', personJsonSql('opponent')],
  ['creatorResolution', jsonValueSql('b.creator_resolution')],
  ['opponentResolution', jsonValueSql('b.opponent_resolution')],
  ['winnerId', jsonPlainStringSql('b.winner_id')],
  ['winner', personJsonSql('winner')],
  ['invitee', jsonValueSql('CASE WHEN b.creator_id = $1 THEN b.invitee END')],
  ['createdAt', jsonPlainStringSql(isoTimestampSql('b.created_at'))],
  ['updatedAt', jsonPlainStringSql(isoTimestampSql('b.updated_at'))],
]);

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
