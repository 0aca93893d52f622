import type { NotificationPreferenceRequest } from '@wagers/contracts/api/notifications';
import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';
import { getNotificationPreferencesQueryOptions } from './get-notification-preferences.ts';

/** PUT /api/notification-preferences: one kind on or off for email. */
export function setNotificationPreference(body: NotificationPreferenceRequest): Promise<unknown> {
  return api.put<unknown>('/api/notification-preferences', body);
}

export function useSetNotificationPreference({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof setNotificationPreference> } = {}) {
  return useApiMutation(setNotificationPreference, {
    invalidates: [getNotificationPreferencesQueryOptions().queryKey],
    errorToast: { title: 'Error', description: 'Failed to save your email choice' },
    config: mutationConfig,
  });
}
