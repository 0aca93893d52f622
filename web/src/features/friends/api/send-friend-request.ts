import type { FriendRequest, SendFriendRequest } from '@wagers/contracts/api/friends';
import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';
import { getFriendRequestsQueryOptions } from './get-friend-requests.ts';
import { searchUsersKey } from './search-users.ts';

/** POST /api/friend-requests */
export function sendFriendRequest(body: SendFriendRequest): Promise<FriendRequest> {
  return api.post<FriendRequest>('/api/friend-requests', body);
}

export function useSendFriendRequest({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof sendFriendRequest> } = {}) {
  return useApiMutation(sendFriendRequest, {
    invalidates: [getFriendRequestsQueryOptions().queryKey, searchUsersKey],
    errorToast: { title: 'Error', description: 'Failed to send friend request' },
    config: mutationConfig,
  });
}
