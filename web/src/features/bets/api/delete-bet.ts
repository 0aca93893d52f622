import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';
import { getBetsQueryOptions } from './get-bets.ts';
import { getStatsQueryOptions } from './get-stats.ts';

/** DELETE /api/bets/{id}: the creator withdraws a pending bet. */
export function deleteBet(id: string): Promise<unknown> {
  return api.delete<unknown>(`/api/bets/${id}`);
}

export function useDeleteBet({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof deleteBet> } = {}) {
  return useApiMutation(deleteBet, {
    invalidates: [getBetsQueryOptions().queryKey, getStatsQueryOptions().queryKey],
    errorToast: { title: 'Error', description: 'Failed to delete bet' },
    config: mutationConfig,
  });
}
