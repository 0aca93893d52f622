import type { Pool } from 'pg';
import type { HeadToHead } from '@wagers/contracts/api/head-to-head';

interface RecordRow {
  friend_id: string;
  wins: string;
  losses: string;
  draws: string;
  net_cents: string;
}

/**
 * Records of `userId` against everyone (or one person) over completed bets. Money counts whether
 * or not it has been paid yet: the record says who won, settling up says who paid.
 */
export async function headToHead(
  pool: Pool,
  userId: string,
  friendId: string | null,
): Promise<HeadToHead[]> {
  const result = await pool.query<RecordRow>(
    `SELECT friend_id,
            count(*) FILTER (WHERE winner_id = $1) AS wins,
            count(*) FILTER (WHERE winner_id = friend_id) AS losses,
            count(*) FILTER (WHERE winner_id IS NULL) AS draws,
            coalesce(sum(CASE WHEN winner_id = $1 THEN amount_cents
                              WHEN winner_id = friend_id THEN -amount_cents END), 0) AS net_cents
     FROM (SELECT CASE WHEN creator_id = $1 THEN opponent_id ELSE creator_id END AS friend_id,
                  winner_id, amount_cents
           FROM rm_head_to_head
           WHERE completed AND (creator_id = $1 OR opponent_id = $1)) bets
     WHERE $2::uuid IS NULL OR friend_id = $2::uuid
     GROUP BY friend_id
     ORDER BY friend_id`,
    [userId, friendId],
  );
  return result.rows.map((row) => ({
    friendId: row.friend_id,
    wins: Number(row.wins),
    losses: Number(row.losses),
    draws: Number(row.draws),
    netCents: Number(row.net_cents),
  }));
}
