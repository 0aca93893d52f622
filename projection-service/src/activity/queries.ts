import type { Pool } from 'pg';
import type { ActivityEntry } from '@wagers/contracts/api/activity';
import { displayName } from '@wagers/contracts/api/user';
import { loadUsers } from '../bets/bet-row.ts';
import { activitySummary } from './summary.ts';

interface ActivityRow {
  event_id: string;
  type: string;
  data: unknown;
  bet_id: string | null;
  title: string | null;
  creator_id: string | null;
  opponent_id: string | null;
  other_id: string | null;
  actor_id: string | null;
  occurred_at: Date;
}

/** The newest `limit` events on the user's bets and friendships, with today's display names. */
export async function recentActivity(
  pool: Pool,
  userId: string,
  limit: number,
): Promise<ActivityEntry[]> {
  const result = await pool.query<ActivityRow>(
    `SELECT a.event_id, a.type, a.data, a.bet_id, b.title, b.creator_id, b.opponent_id,
            a.other_id, a.actor_id, a.occurred_at
     FROM rm_activity a LEFT JOIN rm_activity_bets b ON b.bet_id = a.bet_id
     WHERE a.user_id = $1
     ORDER BY a.occurred_at DESC, a.seq DESC
     LIMIT $2`,
    [userId, limit],
  );
  const users = await loadUsers(
    pool,
    result.rows.flatMap((row) => [row.creator_id, row.opponent_id, row.other_id, row.actor_id]),
  );
  const nameOf = (id: string | null) => (id === null ? 'Wagers' : displayName(users.get(id)));
  return result.rows.flatMap((row) => {
    const summary = activitySummary(
      { type: row.type, data: row.data, isActor: row.actor_id === userId },
      {
        actor: nameOf(row.actor_id),
        creator: nameOf(row.creator_id),
        opponent: row.opponent_id ? nameOf(row.opponent_id) : 'the invited newcomer',
        other: nameOf(row.other_id),
      },
    );
    if (summary === null) return [];
    return [
      {
        id: row.event_id,
        type: row.type,
        occurredAt: row.occurred_at.toISOString(),
        summary,
        betId: row.bet_id,
        betTitle: row.title,
      },
    ];
  });
}
