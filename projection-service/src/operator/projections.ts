import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import {
  operatorProjectionsStream,
  type ProjectionRebuildRequested,
} from '@wagers/contracts/events/projection';
import { comparePositions, type GlobalPosition } from '@wagers/contracts/position';
import { inTransaction } from '@wagers/platform/db';
import type { EventStore } from '@wagers/platform/event-store/port';
import type { Logger } from '@wagers/platform/logger';
import { readCheckpoints, resetProjector } from '@wagers/platform/projections/checkpoints';
import { projectorLag, type ProjectorLag } from '@wagers/platform/projections/lag';
import type { Projector } from '@wagers/platform/projections/projector';
import { runProjector } from '@wagers/platform/projections/runner';

export interface ProjectionStatus extends ProjectorLag {
  head: GlobalPosition | null;
}

/** Each known projector's checkpoint and how far it trails the head of the log. */
export async function projectionStatus(
  pool: Pool,
  store: EventStore,
  projectors: Projector[],
): Promise<ProjectionStatus[]> {
  const [lags, head] = await Promise.all([projectorLag(pool), store.headPosition()]);
  const byName = new Map(lags.map((lag) => [lag.name, lag]));
  const names = [...new Set([...projectors.map((p) => p.name), ...byName.keys()])].sort();
  return names.map((name) => ({
    ...(byName.get(name) ?? {
      name,
      version: 0,
      status: 'never run',
      position: null,
      events: 0,
      seconds: 0,
    }),
    head,
  }));
}

/** Whether some process holds the projector's lock, i.e. runs it now. */
async function isRunningElsewhere(pool: Pool, name: string): Promise<boolean> {
  const client = await pool.connect();
  try {
    const result = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock(hashtext($1)) AS locked',
      [`projector:${name}`],
    );
    if (!result.rows[0]?.locked) return true;
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`projector:${name}`]);
    return false;
  } finally {
    client.release();
  }
}

async function checkpointOf(pool: Pool, name: string): Promise<GlobalPosition | null> {
  const rows = await readCheckpoints(pool);
  return rows.find((row) => row.name === name)?.position ?? null;
}

export interface RebuildProgress {
  name: string;
  applied: number;
  total: number;
  caughtUp: boolean;
  /** Who replays the log: a running service, or this process. */
  runner: 'service' | 'this process';
}

export interface RebuildDeps {
  pool: Pool;
  store: EventStore;
  connectionString: string;
  logger: Logger;
  onProgress?: (progress: RebuildProgress) => void;
  pollMs?: number;
}

/**
 * Empties the projector's tables and sends it back to the start of the log, then waits until it
 * has replayed everything up to the moment of the reset. A copy running in a service does the
 * replay (the recorded request wakes it); if none runs, this process runs the projector itself.
 */
export async function rebuildProjector(projector: Projector, deps: RebuildDeps): Promise<void> {
  const runner = (await isRunningElsewhere(deps.pool, projector.name)) ? 'service' : 'this process';
  await inTransaction(deps.pool, (client) => resetProjector(client, projector));
  const request: ProjectionRebuildRequested = {
    type: 'ProjectionRebuildRequested',
    data: { projector: projector.name, version: projector.version },
  };
  const { position: target } = await deps.store.appendToStream(
    operatorProjectionsStream,
    [
      {
        id: randomUUID(),
        type: request.type,
        data: request.data,
        metadata: {
          actorId: null,
          correlationId: randomUUID(),
          causationId: null,
          occurredAt: new Date().toISOString(),
          schemaVersion: 1,
        },
      },
    ],
    { expectedRevision: 'any' },
  );
  const local = runner === 'this process' ? runProjector(projector, deps) : null;
  try {
    const total =
      (await projectorLag(deps.pool)).find((lag) => lag.name === projector.name)?.events ?? 0;
    for (;;) {
      const position = await checkpointOf(deps.pool, projector.name);
      const caughtUp = position !== null && comparePositions(position, target) >= 0;
      const remaining =
        (await projectorLag(deps.pool)).find((lag) => lag.name === projector.name)?.events ?? 0;
      deps.onProgress?.({
        name: projector.name,
        applied: Math.max(0, total - remaining),
        total,
        caughtUp,
        runner,
      });
      if (caughtUp) return;
      await new Promise((resolve) => setTimeout(resolve, deps.pollMs ?? 250));
    }
  } finally {
    await local?.stop();
  }
}
