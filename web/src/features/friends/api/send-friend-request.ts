import type { FriendRequestSent, SendFriendRequest } from '@wagers/contracts/api/friends';
import { getStatsQueryOptions } from '@/features/bets/api/get-stats.ts';
import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';
import { getFriendRequestsQueryOptions } from './get-friend-requests.ts';
import { getFriendsQueryOptions } from './get-friends.ts';
import { searchUsersKey } from './search-users.ts';

/**
 * POST /api/friend-requests. Answers `friends` when the other person had already asked: then the
 * two are friends at once.
 */
export function sendFriendRequest(body: SendFriendRequest): Promise<FriendRequestSent> {
  return api.post<FriendRequestSent>('/api/friend-requests', body);
}

export function useSendFriendRequest({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof sendFriendRequest> } = {}) {
  return useApiMutation(sendFriendRequest, {
    // Either answer may have changed the friends list and its count (asking back accepts).
    invalidates: [
      getFriendRequestsQueryOptions().queryKey,
      getFriendsQueryOptions().queryKey,
      getStatsQueryOptions().queryKey,
      searchUsersKey,
    ],
    // The server's own words say why (e.g. the hourly limit) and when to try again.
    errorToast: {
      title: 'Error',
      description: 'Failed to send friend request',
      preferServerMessage: true,
    },
    config: mutationConfig,
  });
}
