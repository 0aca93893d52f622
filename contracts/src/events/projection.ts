import { z } from 'zod';

/** The operator's own stream: a record of every rebuild asked for from the projections CLI. */
export const operatorProjectionsStream = 'operator-projections';

export const projectionEventSchemas = {
  /**
   * Also wakes a projector that runs in another process: it sees the new event, finds its
   * checkpoint moved back by the reset, and replays from the start.
   */
  ProjectionRebuildRequested: z.object({ projector: z.string(), version: z.number().int() }),
} as const;

export type ProjectionRebuildRequested = {
  type: 'ProjectionRebuildRequested';
  data: z.infer<typeof projectionEventSchemas.ProjectionRebuildRequested>;
};
