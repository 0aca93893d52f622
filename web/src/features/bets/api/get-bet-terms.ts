import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BetTerms } from '@wagers/contracts/api/bets';
import { api } from '@/lib/api-client.ts';

/** GET /api/bets/{id}/terms: whether the creator's report can stand, and any draw on offer. */
export function getBetTerms(id: string, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<BetTerms>(`/api/bets/${id}/terms`, { signal });
}

export function getBetTermsQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['/api/bets', id, 'terms'],
    queryFn: ({ signal }) => getBetTerms(id, { signal }),
  });
}

export function useBetTerms(id: string) {
  return useQuery(getBetTermsQueryOptions(id));
}
