import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';
import { getFriendRequestsQueryOptions } from './get-friend-requests.ts';
import { searchUsersKey } from './search-users.ts';

/** POST /api/friend-requests/{id}/decline: refreshes requests afterwards. */
export function declineFriendRequest(id: string): Promise<unknown> {
  return api.post<unknown>(`/api/friend-requests/${id}/decline`);
}

export function useDeclineFriendRequest({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof declineFriendRequest> } = {}) {
  return useApiMutation(declineFriendRequest, {
    invalidates: [getFriendRequestsQueryOptions().queryKey, searchUsersKey],
    errorToast: { title: 'Error', description: 'Failed to decline friend request' },
    config: mutationConfig,
  });
}
