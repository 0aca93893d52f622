import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@wagers/contracts/api/user';
import { api } from '@/lib/api-client.ts';

/** GET /api/friends */
export function getFriends({ signal }: { signal?: AbortSignal } = {}): Promise<User[]> {
  return api.get<User[]>('/api/friends', { signal });
}

export function getFriendsQueryOptions() {
  return queryOptions({ queryKey: ['/api/friends'], queryFn: getFriends });
}

export function useFriends({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getFriendsQueryOptions(), enabled });
}
