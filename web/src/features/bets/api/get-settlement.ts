import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Settlement } from '@wagers/contracts/api/settle-up';
import { api } from '@/lib/api-client.ts';

/** GET /api/bets/{id}/settlement: who pays whom on a completed money bet, and how far it got. */
export function getSettlement(id: string, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<Settlement>(`/api/bets/${id}/settlement`, { signal });
}

export function getSettlementQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['/api/bets', id, 'settlement'],
    queryFn: ({ signal }) => getSettlement(id, { signal }),
  });
}

/** Only asked for bets that have money to settle (`enabled`). */
export function useSettlement(id: string, enabled: boolean) {
  return useQuery({ ...getSettlementQueryOptions(id), enabled });
}
