import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';
import { settlementKeys } from './settlement-keys.ts';

/** POST /api/bets/{id}/confirm-receipt: the winner says the money arrived. */
export function confirmReceipt(id: string): Promise<unknown> {
  return api.post<unknown>(`/api/bets/${id}/confirm-receipt`);
}

export function useConfirmReceipt({
  betId,
  mutationConfig,
}: {
  betId: string;
  mutationConfig?: MutationConfig<typeof confirmReceipt>;
}) {
  return useApiMutation(confirmReceipt, {
    invalidates: settlementKeys(betId),
    errorToast: {
      title: 'Error',
      description: 'Failed to confirm the payment',
      preferServerMessage: true,
    },
    config: mutationConfig,
  });
}
