import { z } from 'zod';

/** The operator's own stream: a record of every rebuild and every skipped event asked for. */
export const operatorProjectionsStream = 'operator-projections';

export const projectionEventSchemas = {
  /** A new build of the projector was started, next to the live one. */
  ProjectionRebuildRequested: z.object({ projector: z.string(), version: z.number().int() }),
  /** The projector version passes over an event it cannot apply; never done without this record. */
  ProjectionEventSkipped: z.object({
    projector: z.string(),
    version: z.number().int(),
    eventId: z.string(),
    position: z.string(),
    error: z.string().nullable(),
  }),
} as const;

type Schemas = typeof projectionEventSchemas;
type EventOf<Type extends keyof Schemas> = { type: Type; data: z.infer<Schemas[Type]> };

export type ProjectionRebuildRequested = EventOf<'ProjectionRebuildRequested'>;
export type ProjectionEventSkipped = EventOf<'ProjectionEventSkipped'>;
