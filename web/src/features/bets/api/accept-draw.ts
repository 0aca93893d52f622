import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';
import { getBetsQueryOptions } from './get-bets.ts';
import { getHeadToHeadsQueryOptions } from './get-head-to-heads.ts';
import { getStatsQueryOptions } from './get-stats.ts';

/** POST /api/bets/{id}/accept-draw: the other side takes the draw. */
export function acceptDraw(id: string): Promise<unknown> {
  return api.post<unknown>(`/api/bets/${id}/accept-draw`);
}

export function useAcceptDraw({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof acceptDraw> } = {}) {
  return useApiMutation(acceptDraw, {
    // The draw completes the bet: the records between the two change, as after resolving.
    invalidates: [
      getBetsQueryOptions().queryKey,
      getStatsQueryOptions().queryKey,
      getHeadToHeadsQueryOptions().queryKey,
    ],
    errorToast: {
      title: 'Error',
      description: 'Failed to accept the draw',
      preferServerMessage: true,
    },
    config: mutationConfig,
  });
}
