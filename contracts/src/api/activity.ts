import { z } from 'zod';

/** One line of the dashboard's activity: an event on your bets or friendships. */
export const activityEntrySchema = z.object({
  id: z.string(),
  type: z.string(),
  occurredAt: z.string(),
  summary: z.string(),
  /** The bet it links to; null for a friendship event, which links to Friends. */
  betId: z.string().nullable(),
  betTitle: z.string().nullable(),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

export const ACTIVITY_LIMITS = { default: 20, max: 50 } as const;

/** GET /api/activity?limit=N, newest first. */
export const activityQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(ACTIVITY_LIMITS.max).default(ACTIVITY_LIMITS.default),
});
