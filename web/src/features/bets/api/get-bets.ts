import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Bet } from '@wagers/contracts/api/bets';
import { api } from '@/lib/api-client.ts';

/** GET /api/bets: the signed-in user's bets. Its key prefixes every per-bet key, so invalidating it refreshes them all. */
export function getBets({ signal }: { signal?: AbortSignal } = {}): Promise<Bet[]> {
  return api.get<Bet[]>('/api/bets', { signal });
}

export function getBetsQueryOptions() {
  return queryOptions({ queryKey: ['/api/bets'], queryFn: getBets });
}

export function useBets({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getBetsQueryOptions(), enabled });
}
