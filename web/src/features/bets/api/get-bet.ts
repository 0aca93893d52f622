import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Bet } from '@wagers/contracts/api/bets';
import { api } from '@/lib/api-client.ts';

/** GET /api/bets/{id} */
export function getBet(id: string, { signal }: { signal?: AbortSignal } = {}): Promise<Bet> {
  return api.get<Bet>(`/api/bets/${id}`, { signal });
}

export function getBetQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['/api/bets', id],
    queryFn: ({ signal }) => getBet(id, { signal }),
  });
}

export function useBet(id: string) {
  return useQuery(getBetQueryOptions(id));
}
