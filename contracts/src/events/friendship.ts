import { z } from 'zod';

/** One stream per pair of users, ids sorted, holding their requests and their friendship. */
export const friendshipStream = (userA: string, userB: string) => {
  const [first, second] = [userA, userB].sort();
  return `friendship-${first}-${second}`;
};

const request = { requestId: z.string(), senderId: z.string(), receiverId: z.string() };

export const friendshipEventSchemas = {
  FriendRequestSent: z.object(request),
  FriendRequestAccepted: z.object(request),
  FriendRequestDeclined: z.object(request),
  /** `userIds` sorted; `inviteCode` when an accepted invite made them friends. */
  FriendshipStarted: z.object({
    userIds: z.tuple([z.string(), z.string()]),
    requestId: z.string().nullable(),
    inviteCode: z.string().nullable(),
  }),
} as const;

type Of<Type extends keyof typeof friendshipEventSchemas> = {
  type: Type;
  data: z.infer<(typeof friendshipEventSchemas)[Type]>;
};
export type FriendRequestSent = Of<'FriendRequestSent'>;
export type FriendRequestAccepted = Of<'FriendRequestAccepted'>;
export type FriendRequestDeclined = Of<'FriendRequestDeclined'>;
export type FriendshipStarted = Of<'FriendshipStarted'>;
export type FriendshipEvent =
  FriendRequestSent | FriendRequestAccepted | FriendRequestDeclined | FriendshipStarted;
