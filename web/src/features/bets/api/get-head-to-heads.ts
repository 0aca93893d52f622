import { queryOptions, useQuery } from '@tanstack/react-query';
import type { HeadToHead } from '@wagers/contracts/api/head-to-head';
import { api } from '@/lib/api-client.ts';

/** GET /api/head-to-head: your record against everyone you finished a bet with. */
export function getHeadToHeads({ signal }: { signal?: AbortSignal } = {}) {
  return api.get<HeadToHead[]>('/api/head-to-head', { signal });
}

/** Its key is the prefix of every single record's key, so invalidating it refreshes them all. */
export function getHeadToHeadsQueryOptions() {
  return queryOptions({ queryKey: ['/api/head-to-head'], queryFn: getHeadToHeads });
}

export function useHeadToHeads() {
  return useQuery(getHeadToHeadsQueryOptions());
}
