import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditBetHistory } from '@wagers/contracts/api/audit';
import { api } from '@/lib/api-client.ts';

/**
 * GET /api/audit/bets/{id}/history: every event of the bet, each with the state after it; with
 * `asOf`, only those recorded by that moment, and the bet's state then.
 */
export function getAuditHistory(
  id: string,
  asOf: string | null,
  { signal }: { signal?: AbortSignal } = {},
): Promise<AuditBetHistory> {
  const query = asOf ? `?asOf=${encodeURIComponent(asOf)}` : '';
  return api.get<AuditBetHistory>(`/api/audit/bets/${encodeURIComponent(id)}/history${query}`, {
    signal,
  });
}

export function getAuditHistoryQueryOptions(id: string, asOf: string | null = null) {
  return queryOptions({
    queryKey: ['/api/audit/bets', id, 'history', asOf],
    queryFn: ({ signal }) => getAuditHistory(id, asOf, { signal }),
    // Each load is a look recorded in the trail: refetch only when asked.
    staleTime: Infinity,
    retry: false,
  });
}

export function useAuditHistory(id: string, asOf: string | null = null) {
  return useQuery(getAuditHistoryQueryOptions(id, asOf));
}
