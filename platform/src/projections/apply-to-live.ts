import pg from 'pg';
import type { Pool } from 'pg';
import type { RecordedEvent } from '../event-store/port.ts';
import { inTransaction } from '../db.ts';
import { readLiveBuild } from './checkpoints.ts';
import { applyEvents, type Projector } from './projector.ts';

/**
 * Applies events to the projector's live build in one transaction, without moving its checkpoint:
 * how a test shows that applying an event a second time changes nothing.
 */
export async function applyToLiveBuild(
  pool: Pool,
  projector: Projector,
  events: RecordedEvent[],
): Promise<void> {
  await inTransaction(pool, async (client) => {
    const live = await readLiveBuild(client, projector.name);
    if (!live?.schemaName) throw new Error(`${projector.name} has no live build`);
    await client.query(`SET LOCAL search_path TO ${pg.escapeIdentifier(live.schemaName)}, public`);
    // As a follower applies a live page: what the projector leaves for the commit goes last.
    const atCommit: string[] = [];
    await applyEvents(projector, client, events, {
      bulk: false,
      atCommit: (sql) => atCommit.push(sql),
    });
    if (atCommit.length > 0) await client.query(atCommit.join('; '));
  });
}
