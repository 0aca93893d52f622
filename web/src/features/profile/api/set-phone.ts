import type { PhoneSettings, SetPhoneRequest } from '@wagers/contracts/api/profile';
import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';
import { getPhoneQueryOptions } from './get-phone.ts';

/** PUT /api/user/phone: the number (null removes it) and the SMS consent. */
export function setPhone(body: SetPhoneRequest): Promise<PhoneSettings> {
  return api.put<PhoneSettings>('/api/user/phone', body);
}

export function useSetPhone({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof setPhone> } = {}) {
  return useApiMutation(setPhone, {
    invalidates: [getPhoneQueryOptions().queryKey],
    errorToast: { title: 'Error', description: 'Failed to save your phone number' },
    config: mutationConfig,
  });
}
