import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';
import { getBetsQueryOptions } from './get-bets.ts';
import { getStatsQueryOptions } from './get-stats.ts';

/** POST /api/bets/{id}/decline: the invited opponent turns the bet down. */
export function declineBet(id: string): Promise<unknown> {
  return api.post<unknown>(`/api/bets/${id}/decline`);
}

export function useDeclineBet({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof declineBet> } = {}) {
  return useApiMutation(declineBet, {
    invalidates: [getBetsQueryOptions().queryKey, getStatsQueryOptions().queryKey],
    errorToast: { title: 'Error', description: 'Failed to decline bet' },
    config: mutationConfig,
  });
}
