import type { Pool } from 'pg';
import type { BetHistoryEntry } from '@wagers/contracts/api/bets';
import { displayName } from '@wagers/contracts/api/user';
import { betStreamEventSchemas, type BetStreamEvent } from '@wagers/contracts/events/bet';
import { loadUsers } from './bet-row.ts';
import { summarize } from './history-summary.ts';
import { isBetId } from './queries.ts';

export function toBetEvent(type: string, data: unknown): BetStreamEvent | null {
  if (!Object.hasOwn(betStreamEventSchemas, type)) return null;
  const schema = betStreamEventSchemas[type as BetStreamEvent['type']];
  return { type, data: schema.parse(data) } as BetStreamEvent;
}

interface HistoryRow {
  revision: string;
  event_id: string;
  type: string;
  data: unknown;
  actor_id: string | null;
  occurred_at: Date;
}

/**
 * Every event of one bet, in stream order, for its participants (a deleted bet included: the
 * history keeps it). Served from rm_bet_history, a one-row-per-revision copy of the bet stream:
 * the query service reads PostgreSQL only and holds no event-store handle, and a copy keyed by
 * revision is the stream itself, rebuilt identically on replay. Names are today's display names.
 */
export async function betHistory(
  pool: Pool,
  userId: string,
  betId: string,
): Promise<BetHistoryEntry[] | null> {
  if (!isBetId(betId)) return null;
  const bet = await pool.query<{ creator_id: string; opponent_id: string | null }>(
    'SELECT creator_id, opponent_id FROM rm_bets WHERE id = $1 AND (creator_id = $2 OR opponent_id = $2)',
    [betId, userId],
  );
  const participants = bet.rows[0];
  if (!participants) return null;
  const rows = await pool.query<HistoryRow>(
    `SELECT revision, event_id, type, data, actor_id, occurred_at FROM rm_bet_history
      WHERE bet_id = $1 ORDER BY revision`,
    [betId],
  );
  const users = await loadUsers(pool, [
    participants.creator_id,
    participants.opponent_id,
    ...rows.rows.map((row) => row.actor_id),
  ]);
  const nameOf = (id: string | null) => (id === null ? 'Wagers' : displayName(users.get(id)));
  return rows.rows.flatMap((row) => {
    const event = toBetEvent(row.type, row.data);
    if (!event) return [];
    const names = {
      actor: nameOf(row.actor_id),
      creator: nameOf(participants.creator_id),
      opponent: participants.opponent_id
        ? nameOf(participants.opponent_id)
        : 'the invited newcomer',
    };
    return [
      {
        eventId: row.event_id,
        type: row.type,
        revision: Number(row.revision),
        occurredAt: row.occurred_at.toISOString(),
        actorId: row.actor_id,
        actorName: nameOf(row.actor_id),
        summary: summarize(event, names),
      },
    ];
  });
}
