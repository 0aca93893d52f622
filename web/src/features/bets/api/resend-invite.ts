import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';
import { getBetsQueryOptions } from './get-bets.ts';
import { getStatsQueryOptions } from './get-stats.ts';

/** POST /api/bets/{id}/resend-invite: sends the newcomer's invitation again. */
export function resendInvite(id: string): Promise<unknown> {
  return api.post<unknown>(`/api/bets/${id}/resend-invite`);
}

export function useResendInvite({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof resendInvite> } = {}) {
  return useApiMutation(resendInvite, {
    invalidates: [getBetsQueryOptions().queryKey, getStatsQueryOptions().queryKey],
    errorToast: { title: 'Error', description: 'Failed to resend invitation' },
    config: mutationConfig,
  });
}
