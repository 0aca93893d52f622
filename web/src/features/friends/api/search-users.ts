import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserSearchResult } from '@wagers/contracts/api/friends';
import { api } from '@/lib/api-client.ts';

/** GET /api/users/search?query={text}. Its errors read "status: statusText". */
export function searchUsers(
  query: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<UserSearchResult[]> {
  return api.get<UserSearchResult[]>(`/api/users/search?query=${encodeURIComponent(query)}`, {
    signal,
    errorText: 'statusText',
  });
}

export function searchUsersQueryOptions(query: string) {
  return queryOptions({
    queryKey: ['/api/users/search', query],
    queryFn: ({ signal }) => searchUsers(query, { signal }),
    enabled: query.trim() !== '',
  });
}

export function useSearchUsers(query: string) {
  return useQuery(searchUsersQueryOptions(query));
}

/** Prefix of every search, for invalidation after a request changes a relationship. */
export const searchUsersKey = ['/api/users/search'] as const;
