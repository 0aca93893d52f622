import type { AccountDeletedResponse, DeleteAccountRequest } from '@wagers/contracts/api/profile';
import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';

/** DELETE /api/user: deletes the signed-in account, confirmed by its email address. */
export function deleteAccount(body: DeleteAccountRequest): Promise<AccountDeletedResponse> {
  return api.delete<AccountDeletedResponse>('/api/user', body);
}

export function useDeleteAccount({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof deleteAccount> } = {}) {
  return useApiMutation(deleteAccount, {
    errorToast: {
      title: 'Account not deleted',
      description: 'Check the email address and try again.',
    },
    config: mutationConfig,
  });
}
