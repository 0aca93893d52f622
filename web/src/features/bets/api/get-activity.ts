import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ActivityEntry } from '@wagers/contracts/api/activity';
import { api } from '@/lib/api-client.ts';

export const DASHBOARD_ACTIVITY_LIMIT = 10;

/** GET /api/activity?limit=N: events on your bets and friendships, newest first. */
export function getActivity(limit: number, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<ActivityEntry[]>(`/api/activity?limit=${limit}`, { signal });
}

/**
 * Nearly every command adds a line here, the friend's included, so it is fetched afresh each time
 * the dashboard opens rather than invalidated by every mutation.
 */
export function getActivityQueryOptions(limit = DASHBOARD_ACTIVITY_LIMIT) {
  return queryOptions({
    queryKey: ['/api/activity', limit],
    queryFn: ({ signal }) => getActivity(limit, { signal }),
    staleTime: 0,
  });
}

export function useActivity() {
  return useQuery(getActivityQueryOptions());
}
