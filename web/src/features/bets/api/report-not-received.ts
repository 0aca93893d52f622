import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';
import { settlementKeys } from './settlement-keys.ts';

/** POST /api/bets/{id}/not-received: the winner says the money never arrived. */
export function reportNotReceived(id: string): Promise<unknown> {
  return api.post<unknown>(`/api/bets/${id}/not-received`);
}

export function useReportNotReceived({
  betId,
  mutationConfig,
}: {
  betId: string;
  mutationConfig?: MutationConfig<typeof reportNotReceived>;
}) {
  return useApiMutation(reportNotReceived, {
    invalidates: settlementKeys(betId),
    errorToast: {
      title: 'Error',
      description: 'Failed to report the payment',
      preferServerMessage: true,
    },
    config: mutationConfig,
  });
}
