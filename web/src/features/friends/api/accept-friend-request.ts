import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';
import { getFriendRequestsQueryOptions } from './get-friend-requests.ts';
import { getFriendsQueryOptions } from './get-friends.ts';
import { searchUsersKey } from './search-users.ts';

/** POST /api/friend-requests/{id}/accept: refreshes requests and friends afterwards. */
export function acceptFriendRequest(id: string): Promise<unknown> {
  return api.post<unknown>(`/api/friend-requests/${id}/accept`);
}

export function useAcceptFriendRequest({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof acceptFriendRequest> } = {}) {
  return useApiMutation(acceptFriendRequest, {
    invalidates: [
      getFriendRequestsQueryOptions().queryKey,
      getFriendsQueryOptions().queryKey,
      searchUsersKey,
    ],
    errorToast: { title: 'Error', description: 'Failed to accept friend request' },
    config: mutationConfig,
  });
}
