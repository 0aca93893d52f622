import type { Pool } from 'pg';
import { parsePosition } from '@wagers/contracts/position';
import { readBuilds, type BuildRow } from './checkpoints.ts';

export interface ProjectorLag extends BuildRow {
  /** Events in the log after the checkpoint. */
  lagEvents: number;
  /** Age of the oldest event not yet applied; 0 when caught up. */
  lagSeconds: number;
}

/** How far each build of each follower of the log (projectors, the notifier's dispatcher) trails its head. */
export async function projectorLag(
  pool: Pool,
  only?: { name: string; build: number },
): Promise<ProjectorLag[]> {
  const builds = (await readBuilds(pool, only?.name)).filter(
    (row) => !only || row.build === only.build,
  );
  return Promise.all(
    builds.map(async (build) => {
      // A retired build follows nothing any more: how far behind it is says nothing.
      if (build.status === 'retired') return { ...build, lagEvents: 0, lagSeconds: 0 };
      const [tx, position] = build.position ? parsePosition(build.position) : [0n, 0n];
      // The age by the database's clock, which recorded the events: this process's clock may
      // differ from it (an operator's laptop, a container whose clock drifted).
      const result = await pool.query<{ events: string; seconds: number | null }>(
        `SELECT count(*) AS events,
                greatest(0, extract(epoch FROM now() - min(recorded_at)))::float8 AS seconds
           FROM es_events
          WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)`,
        [tx.toString(), position.toString()],
      );
      const row = result.rows[0];
      return {
        ...build,
        lagEvents: Number(row?.events ?? 0),
        lagSeconds: row?.seconds ?? 0,
      };
    }),
  );
}
