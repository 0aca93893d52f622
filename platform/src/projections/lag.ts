import type { Pool } from 'pg';
import { parsePosition } from '@wagers/contracts/position';
import { readCheckpoints } from './checkpoints.ts';

export interface ProjectorLag {
  name: string;
  version: number;
  status: string;
  position: string | null;
  /** Events in the log after the checkpoint. */
  events: number;
  /** Age of the oldest event not yet applied; 0 when caught up. */
  seconds: number;
}

/** How far each follower of the log (projectors, the notifier's dispatcher) is behind its head. */
export async function projectorLag(pool: Pool): Promise<ProjectorLag[]> {
  const checkpoints = await readCheckpoints(pool);
  return Promise.all(
    checkpoints.map(async (checkpoint) => {
      const [tx, position] = checkpoint.position ? parsePosition(checkpoint.position) : [0n, 0n];
      const result = await pool.query<{ events: string; oldest: Date | null }>(
        `SELECT count(*) AS events, min(recorded_at) AS oldest FROM es_events
         WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)`,
        [tx.toString(), position.toString()],
      );
      const row = result.rows[0];
      const oldest = row?.oldest ?? null;
      return {
        name: checkpoint.name,
        version: checkpoint.version,
        status: checkpoint.status,
        position: checkpoint.position,
        events: Number(row?.events ?? 0),
        seconds: oldest ? Math.max(0, (Date.now() - oldest.getTime()) / 1000) : 0,
      };
    }),
  );
}
