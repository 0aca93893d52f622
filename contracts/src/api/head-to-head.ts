import { z } from 'zod';

/** Your record against one person over every completed bet between you two. */
export const headToHeadSchema = z.object({
  friendId: z.string(),
  wins: z.number().int(),
  losses: z.number().int(),
  draws: z.number().int(),
  /** Money won minus money lost, in cents: negative when you are down. */
  netCents: z.number().int(),
});
export type HeadToHead = z.infer<typeof headToHeadSchema>;

/** GET /api/head-to-head: one record per person you have completed a bet with. */
export const headToHeadListSchema = z.array(headToHeadSchema);

/** The record of two people who never finished a bet together. */
export const noRecord = (friendId: string): HeadToHead => ({
  friendId,
  wins: 0,
  losses: 0,
  draws: 0,
  netCents: 0,
});
