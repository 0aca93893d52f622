import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';
import { getBetsQueryOptions } from './get-bets.ts';
import { getStatsQueryOptions } from './get-stats.ts';

/** POST /api/bets/{id}/offer-draw: one side offers to call a disagreement a draw. */
export function offerDraw(id: string): Promise<unknown> {
  return api.post<unknown>(`/api/bets/${id}/offer-draw`);
}

export function useOfferDraw({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof offerDraw> } = {}) {
  return useApiMutation(offerDraw, {
    invalidates: [getBetsQueryOptions().queryKey, getStatsQueryOptions().queryKey],
    errorToast: {
      title: 'Error',
      description: 'Failed to offer a draw',
      preferServerMessage: true,
    },
    config: mutationConfig,
  });
}
