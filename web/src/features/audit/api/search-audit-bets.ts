import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditBetSummary, AuditSearchQuery } from '@wagers/contracts/api/audit';
import { api } from '@/lib/api-client.ts';

/** GET /api/audit/bets: bets by id, participant email or name, and day proposed. */
export function searchAuditBets(
  query: AuditSearchQuery,
  { signal }: { signal?: AbortSignal } = {},
): Promise<AuditBetSummary[]> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  return api.get<AuditBetSummary[]>(`/api/audit/bets?${params.toString()}`, { signal });
}

export function searchAuditBetsQueryOptions(query: AuditSearchQuery) {
  return queryOptions({
    queryKey: ['/api/audit/bets', query],
    queryFn: ({ signal }) => searchAuditBets(query, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useSearchAuditBets(query: AuditSearchQuery) {
  return useQuery(searchAuditBetsQueryOptions(query));
}
