import { randomUUID } from 'node:crypto';

/** Injected so tests can fix time and ids. */
export interface Runtime {
  now: () => Date;
  newId: () => string;
}

export const systemRuntime: Runtime = { now: () => new Date(), newId: () => randomUUID() };
