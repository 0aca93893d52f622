import { queryOptions, useQuery } from '@tanstack/react-query';
import type { HeadToHead } from '@wagers/contracts/api/head-to-head';
import { api } from '@/lib/api-client.ts';

/** GET /api/head-to-head/{userId}: your record against one person. */
export function getHeadToHead(userId: string, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<HeadToHead>(`/api/head-to-head/${userId}`, { signal });
}

export function getHeadToHeadQueryOptions(userId: string) {
  return queryOptions({
    queryKey: ['/api/head-to-head', userId],
    queryFn: ({ signal }) => getHeadToHead(userId, { signal }),
  });
}

export function useHeadToHead(userId: string) {
  return useQuery(getHeadToHeadQueryOptions(userId));
}
