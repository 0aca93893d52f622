import type { Pool } from 'pg';
import type { User } from '@wagers/contracts/api/user';
import { isoTimestampSql } from '@wagers/platform/http/json-text';
import { toUser, userColumns, userJsonSql, type UserRow } from '../users/user-row.ts';

/** The people a bet names, joined from the users read model under these aliases. */
const people = ['creator', 'opponent', 'winner'] as const;

/**
 * `SELECT ${betJsonSql} FROM ${betsWithPeople} WHERE ...`: the bet (alias `b`) as JSON text of a
 * `Bet`, built by PostgreSQL with the users it names joined in the same statement, for the viewer
 * whose id is `$1` (only the creator sees the invitee). Field by field what `Bet` says: amounts as
 * "12.50" and exact cents, dates as YYYY-MM-DD, times as toISOString writes them, a person the
 * users read model has not caught up with as the id alone (unknown since the bet was made).
 */
export const betJsonSql = `(SELECT row_to_json(j) FROM (SELECT b.id, b.title, b.description,
  b.wager_type AS "wagerType",
  (b.wager_amount_cents / 100)::text || '.' || lpad((b.wager_amount_cents % 100)::text, 2, '0')
    AS "wagerAmount",
  b.wager_amount_cents AS "wagerAmountCents", b.wager_description AS "wagerDescription",
  to_char(b.end_date, 'YYYY-MM-DD') AS "endDate", b.validation_mode AS "validationMode", b.status,
  b.creator_id AS "creatorId", b.opponent_id AS "opponentId",
  ${userJsonSql('creator', 'b.creator_id', 'b.created_at')} AS creator,
  ${userJsonSql('opponent', 'b.opponent_id', 'b.created_at')} AS opponent,
  b.creator_resolution AS "creatorResolution", b.opponent_resolution AS "opponentResolution",
  b.winner_id AS "winnerId", ${userJsonSql('winner', 'b.winner_id', 'b.created_at')} AS winner,
  CASE WHEN b.creator_id = $1 THEN b.invitee END AS invitee,
  ${isoTimestampSql('b.created_at')} AS "createdAt", ${isoTimestampSql('b.updated_at')} AS "updatedAt"
) j)::text`;

export const betsWithPeople = `rm_bets b ${people
  .map((person) => `LEFT JOIN rm_users ${person} ON ${person}.id = b.${person}_id`)
  .join(' ')}`;

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
