import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';
import { getBetsQueryOptions } from './get-bets.ts';
import { getStatsQueryOptions } from './get-stats.ts';

interface ResendInviteInput {
  id: string;
  /** The same for a retry of the same resend, so the invitation goes out once. */
  idempotencyKey: string;
}

/** POST /api/bets/{id}/resend-invite: sends the newcomer's invitation again. */
export function resendInvite({ id, idempotencyKey }: ResendInviteInput): Promise<unknown> {
  return api.post<unknown>(`/api/bets/${id}/resend-invite`, undefined, { idempotencyKey });
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
