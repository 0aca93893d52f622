import type { ClientBase, Pool } from 'pg';
import pg from 'pg';
import { parsePosition, type GlobalPosition } from '@wagers/contracts/position';
import { PROJECTIONS_CHANNEL, type Projector } from './projector.ts';

export interface CheckpointRow {
  name: string;
  version: number;
  position: GlobalPosition | null;
  status: string;
  updatedAt: Date;
}

export async function readCheckpoints(db: Pool | ClientBase): Promise<CheckpointRow[]> {
  const result = await db.query<{
    name: string;
    version: number;
    position: string | null;
    status: string;
    updated_at: Date;
  }>(
    'SELECT name, version, position, status, updated_at FROM projection_checkpoints ORDER BY name',
  );
  return result.rows.map((row) => ({
    name: row.name,
    version: row.version,
    position: row.position,
    status: row.status,
    updatedAt: row.updated_at,
  }));
}

/** Locks the projector's checkpoint row for this transaction, creating it at the start if absent. */
export async function lockCheckpoint(
  client: ClientBase,
  projector: Pick<Projector, 'name' | 'version'>,
): Promise<{ version: number; position: GlobalPosition | null }> {
  await client.query(
    `INSERT INTO projection_checkpoints (name, version) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
    [projector.name, projector.version],
  );
  const result = await client.query<{ version: number; position: string | null }>(
    'SELECT version, position FROM projection_checkpoints WHERE name = $1 FOR UPDATE',
    [projector.name],
  );
  const row = result.rows[0]!;
  return { version: row.version, position: row.position };
}

export async function saveCheckpoint(
  client: ClientBase,
  name: string,
  position: GlobalPosition | null,
  extra: { version?: number; status?: string } = {},
): Promise<void> {
  const [major, minor] = position ? parsePosition(position) : [0n, 0n];
  await client.query(
    `UPDATE projection_checkpoints
       SET position = $2, position_major = $3, position_minor = $4, updated_at = now(),
           version = COALESCE($5, version), status = COALESCE($6, status)
     WHERE name = $1`,
    [
      name,
      position,
      major.toString(),
      minor.toString(),
      extra.version ?? null,
      extra.status ?? null,
    ],
  );
  await client.query('SELECT pg_notify($1, $2)', [PROJECTIONS_CHANNEL, name]);
}

/** Empties a projector's tables and sends it back to the start of the log, in one transaction. */
export async function resetProjector(
  client: ClientBase,
  projector: Pick<Projector, 'name' | 'version' | 'tables'>,
  status = 'rebuilding',
): Promise<void> {
  await lockCheckpoint(client, projector);
  if (projector.tables.length > 0) {
    await client.query(
      `TRUNCATE ${projector.tables.map((t) => pg.escapeIdentifier(t)).join(', ')}`,
    );
  }
  await saveCheckpoint(client, projector.name, null, { version: projector.version, status });
}
