import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BetHistoryEntry } from '@wagers/contracts/api/bets';
import { api } from '@/lib/api-client.ts';

/** GET /api/bets/{id}/history: every recorded change of one bet, oldest first. */
export function getBetHistory(
  id: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<BetHistoryEntry[]> {
  return api.get<BetHistoryEntry[]>(`/api/bets/${id}/history`, { signal });
}

export function getBetHistoryQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['/api/bets', id, 'history'],
    queryFn: ({ signal }) => getBetHistory(id, { signal }),
  });
}

export function useBetHistory(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getBetHistoryQueryOptions(id), enabled });
}
