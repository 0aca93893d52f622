import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditBetHistory } from '@wagers/contracts/api/audit';
import { api } from '@/lib/api-client.ts';

/** GET /api/audit/bets/{id}/history: every event of the bet, each with the state after it. */
export function getAuditHistory(
  id: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<AuditBetHistory> {
  return api.get<AuditBetHistory>(`/api/audit/bets/${encodeURIComponent(id)}/history`, { signal });
}

export function getAuditHistoryQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['/api/audit/bets', id, 'history'],
    queryFn: ({ signal }) => getAuditHistory(id, { signal }),
    // Each load is a look recorded in the trail: refetch only when asked.
    staleTime: Infinity,
    retry: false,
  });
}

export function useAuditHistory(id: string) {
  return useQuery(getAuditHistoryQueryOptions(id));
}
