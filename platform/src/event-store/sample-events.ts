import { randomUUID } from 'node:crypto';
import type { EventToAppend } from './port.ts';

/** An event to append, with fresh ids, for tests and benchmarks of event stores. */
export function sampleEvent(type = 'SomethingHappened', data: unknown = { n: 1 }): EventToAppend {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: {
      actorId: randomUUID(),
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
    },
  };
}

/** A stream id no other test, run or process uses, so tests can share a server. */
export function uniqueStreamId(label: string): string {
  return `${label}-${randomUUID().replaceAll('-', '')}`;
}
