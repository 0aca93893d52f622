import { randomUUID } from 'node:crypto';
import {
  operatorProjectionsStream,
  type ProjectionEventSkipped,
  type ProjectionRebuildRequested,
} from '@wagers/contracts/events/projection';
import type { EventStore } from '@wagers/platform/event-store/port';

/** Writes what the operator did into the log, where every other decision is kept. */
export async function recordOperatorEvent(
  store: EventStore,
  event: ProjectionRebuildRequested | ProjectionEventSkipped,
): Promise<void> {
  await store.appendToStream(
    operatorProjectionsStream,
    [
      {
        id: randomUUID(),
        type: event.type,
        data: event.data,
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
}
