import type { Resolution } from '@wagers/contracts/api/bets';
import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';
import { getBetsQueryOptions } from './get-bets.ts';
import { getHeadToHeadsQueryOptions } from './get-head-to-heads.ts';
import { getSettleUpQueryOptions } from './get-settle-up.ts';
import { getStatsQueryOptions } from './get-stats.ts';

/** POST /api/bets/{id}/resolve: one participant's report of the outcome. */
export function resolveBet({
  id,
  resolution,
}: {
  id: string;
  resolution: Resolution;
}): Promise<unknown> {
  return api.post<unknown>(`/api/bets/${id}/resolve`, { resolution });
}

export function useResolveBet({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof resolveBet> } = {}) {
  return useApiMutation(resolveBet, {
    invalidates: [
      getBetsQueryOptions().queryKey,
      getStatsQueryOptions().queryKey,
      getSettleUpQueryOptions().queryKey,
      getHeadToHeadsQueryOptions().queryKey,
    ],
    errorToast: { title: 'Error', description: 'Failed to submit resolution' },
    config: mutationConfig,
  });
}
