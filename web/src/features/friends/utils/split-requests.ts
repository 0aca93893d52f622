import type { FriendRequest } from '@wagers/contracts/api/friends';

/** Splits the user's pending requests into the ones to answer and the ones waiting on others. */
export function splitRequests(requests: readonly FriendRequest[], userId: string) {
  return {
    incoming: requests.filter(
      (request) => request.receiverId === userId && request.status === 'pending',
    ),
    sent: requests.filter((request) => request.senderId === userId && request.status === 'pending'),
  };
}
