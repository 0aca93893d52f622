import type { ClientBase } from 'pg';
import type { RecordedEvent } from '../event-store/port.ts';

/**
 * Turns events into read-model rows. A projector owns its tables (created by migrations); `apply`
 * runs inside the batch's transaction and must ignore event types it does not know.
 */
export interface Projector {
  name: string;
  /** Raising the version empties the projector's tables and replays the log into them. */
  version: number;
  tables: string[];
  apply(client: ClientBase, event: RecordedEvent): Promise<void>;
}

export const PROJECTIONS_CHANNEL = 'wagers_projections';
