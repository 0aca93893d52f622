import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PhoneSettings } from '@wagers/contracts/api/profile';
import { api } from '@/lib/api-client.ts';

/** GET /api/user/phone: your number and whether you agreed to text messages. */
export function getPhone({ signal }: { signal?: AbortSignal } = {}) {
  return api.get<PhoneSettings>('/api/user/phone', { signal });
}

export function getPhoneQueryOptions() {
  return queryOptions({ queryKey: ['/api/user/phone'], queryFn: getPhone });
}

export function usePhone() {
  return useQuery(getPhoneQueryOptions());
}
