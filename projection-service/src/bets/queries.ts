import type { Pool } from 'pg';
import type { Bet, Stats } from '@wagers/contracts/api/bets';
import type { JsonText } from '@wagers/platform/http/json-text';
import { betJsonSql, betPeopleJoin, betsWithPeople } from './bet-row.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Only a well-formed id can name a bet; anything else is simply not found. */
export const isBetId = (id: string) => UUID.test(id);

const mine = '(creator_id = $1 OR opponent_id = $1)';

/**
 * Named, so each connection plans them once: with the people joined in, planning costs more than
 * running them. A switch to a new build replaces the views, and PostgreSQL plans again. Both
 * answer JSON text PostgreSQL built, which the routes send as it is.
 */
export const LIST_BETS = {
  name: 'bets_list_json',
  text: `${betsWithPeople(`${mine} AND status <> 'deleted'`)}
    SELECT '[' || coalesce(string_agg(${betJsonSql}, ',' ORDER BY b.created_at DESC, b.seq DESC), '')
           || ']' AS json
      FROM ${betPeopleJoin}`,
};
export const FIND_BET = {
  name: 'bets_find_json',
  text: `${betsWithPeople(`id = $2 AND ${mine} AND status <> 'deleted'`)}
    SELECT ${betJsonSql} AS json FROM ${betPeopleJoin}`,
};

/** The caller's bets, newest first; deleted ones have left the list. */
export async function listBets(pool: Pool, userId: string): Promise<JsonText<Bet[]>> {
  const result = await pool.query<{ json: string }>({ ...LIST_BETS, values: [userId] });
  return result.rows[0]?.json ?? '[]';
}

/** One bet, if the caller takes part in it; null for everyone else, as for an unknown id. */
export async function findBet(
  pool: Pool,
  userId: string,
  betId: string,
): Promise<JsonText<Bet> | null> {
  if (!isBetId(betId)) return null;
  const result = await pool.query<{ json: string }>({ ...FIND_BET, values: [userId, betId] });
  return result.rows[0]?.json ?? null;
}

export async function betStats(pool: Pool, userId: string): Promise<Stats> {
  const result = await pool.query<{ total: string; active: string; won: string; friends: string }>(
    `SELECT count(*) AS total,
            count(*) FILTER (WHERE status IN ('active', 'awaiting_resolution')) AS active,
            count(*) FILTER (WHERE winner_id = $1) AS won,
            (SELECT count(*) FROM rm_friendships WHERE user_id = $1) AS friends
       FROM rm_bets WHERE ${mine} AND status <> 'deleted'`,
    [userId],
  );
  const row = result.rows[0];
  return {
    totalBets: Number(row?.total ?? 0),
    activeBets: Number(row?.active ?? 0),
    wonBets: Number(row?.won ?? 0),
    friendsCount: Number(row?.friends ?? 0),
  };
}
