import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FriendRequest } from '@wagers/contracts/api/friends';
import { api } from '@/lib/api-client.ts';

/** GET /api/friend-requests: pending requests the user sent or received. */
export function getFriendRequests({ signal }: { signal?: AbortSignal } = {}): Promise<
  FriendRequest[]
> {
  return api.get<FriendRequest[]>('/api/friend-requests', { signal });
}

export function getFriendRequestsQueryOptions() {
  return queryOptions({ queryKey: ['/api/friend-requests'], queryFn: getFriendRequests });
}

export function useFriendRequests() {
  return useQuery(getFriendRequestsQueryOptions());
}
