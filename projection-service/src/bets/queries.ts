import type { Pool } from 'pg';
import type { Bet, Stats } from '@wagers/contracts/api/bets';
import { betColumns, betsWithPeople, toBet, type BetWithPeopleRow } from './bet-row.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Only a well-formed id can name a bet; anything else is simply not found. */
export const isBetId = (id: string) => UUID.test(id);

const mine = '(creator_id = $1 OR opponent_id = $1)';
const mineInB = '(b.creator_id = $1 OR b.opponent_id = $1)';

/**
 * Named, so each connection plans them once: with the people joined in, planning costs more than
 * running them. A switch to a new build replaces the views, and PostgreSQL plans again.
 */
const LIST_BETS = {
  name: 'bets_list',
  text: `SELECT ${betColumns} FROM ${betsWithPeople}
          WHERE ${mineInB} AND b.status <> 'deleted' ORDER BY b.created_at DESC, b.seq DESC`,
};
const FIND_BET = {
  name: 'bets_find',
  text: `SELECT ${betColumns} FROM ${betsWithPeople}
          WHERE b.id = $2 AND ${mineInB} AND b.status <> 'deleted'`,
};

/** The caller's bets, newest first; deleted ones have left the list. */
export async function listBets(pool: Pool, userId: string): Promise<Bet[]> {
  const result = await pool.query<BetWithPeopleRow>({ ...LIST_BETS, values: [userId] });
  return result.rows.map((row) => toBet(row, userId));
}

/** One bet, if the caller takes part in it; null for everyone else, as for an unknown id. */
export async function findBet(pool: Pool, userId: string, betId: string): Promise<Bet | null> {
  if (!isBetId(betId)) return null;
  const result = await pool.query<BetWithPeopleRow>({ ...FIND_BET, values: [userId, betId] });
  const [row] = result.rows;
  return row ? toBet(row, userId) : null;
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
