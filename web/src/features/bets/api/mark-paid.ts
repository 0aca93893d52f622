import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';
import { settlementKeys } from './settlement-keys.ts';

/** POST /api/bets/{id}/mark-paid: the loser says they paid. */
export function markPaid(id: string): Promise<unknown> {
  return api.post<unknown>(`/api/bets/${id}/mark-paid`);
}

export function useMarkPaid({
  betId,
  mutationConfig,
}: {
  betId: string;
  mutationConfig?: MutationConfig<typeof markPaid>;
}) {
  return useApiMutation(markPaid, {
    invalidates: settlementKeys(betId),
    errorToast: {
      title: 'Error',
      description: 'Failed to mark the bet paid',
      preferServerMessage: true,
    },
    config: mutationConfig,
  });
}
