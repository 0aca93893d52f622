import { z } from 'zod';
import { userSchema } from './user.ts';

export const friendRequestSchema = z.object({
  id: z.string(),
  senderId: z.string(),
  receiverId: z.string(),
  sender: userSchema,
  receiver: userSchema,
  status: z.literal('pending'),
  createdAt: z.string(),
});
export type FriendRequest = z.infer<typeof friendRequestSchema>;

export const sendFriendRequestSchema = z.object({
  receiverId: z.string().min(1, 'Choose who to add'),
});
export type SendFriendRequest = z.infer<typeof sendFriendRequestSchema>;

/**
 * POST /api/friend-requests answers `pending` with the request's id, or `friends` (and no id)
 * when the other person had already asked: asking back accepts their request.
 */
export const friendRequestSentSchema = z.object({
  id: z.string().nullable(),
  status: z.enum(['pending', 'friends']),
});
export type FriendRequestSent = z.infer<typeof friendRequestSentSchema>;

export const relationships = ['friend', 'request_sent', 'request_received', 'none'] as const;
export type Relationship = (typeof relationships)[number];

/** A search result: `email` is null unless already a friend or the query equals it exactly. */
export const userSearchResultSchema = userSchema.extend({ relationship: z.enum(relationships) });
export type UserSearchResult = z.infer<typeof userSearchResultSchema>;

export const SEARCH_LIMIT = 20;
