import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Stats } from '@wagers/contracts/api/bets';
import { api } from '@/lib/api-client.ts';

/** GET /api/stats: totals for the dashboard and profile. */
export function getStats({ signal }: { signal?: AbortSignal } = {}): Promise<Stats> {
  return api.get<Stats>('/api/stats', { signal });
}

export function getStatsQueryOptions() {
  return queryOptions({ queryKey: ['/api/stats'], queryFn: getStats });
}

export function useStats() {
  return useQuery(getStatsQueryOptions());
}
