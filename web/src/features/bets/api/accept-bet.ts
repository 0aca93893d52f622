import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';
import { getBetsQueryOptions } from './get-bets.ts';
import { getStatsQueryOptions } from './get-stats.ts';

/** POST /api/bets/{id}/accept: the invited opponent takes the bet on. */
export function acceptBet(id: string): Promise<unknown> {
  return api.post<unknown>(`/api/bets/${id}/accept`);
}

export function useAcceptBet({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof acceptBet> } = {}) {
  return useApiMutation(acceptBet, {
    invalidates: [getBetsQueryOptions().queryKey, getStatsQueryOptions().queryKey],
    errorToast: { title: 'Error', description: 'Failed to accept bet' },
    config: mutationConfig,
  });
}
