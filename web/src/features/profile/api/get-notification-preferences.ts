import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NotificationPreferences } from '@wagers/contracts/api/notifications';
import { api } from '@/lib/api-client.ts';

/** GET /api/notification-preferences: each kind and whether it is emailed. */
export function getNotificationPreferences({ signal }: { signal?: AbortSignal } = {}) {
  return api.get<NotificationPreferences>('/api/notification-preferences', { signal });
}

export function getNotificationPreferencesQueryOptions() {
  return queryOptions({
    queryKey: ['/api/notification-preferences'],
    queryFn: getNotificationPreferences,
  });
}

export function useNotificationPreferences() {
  return useQuery(getNotificationPreferencesQueryOptions());
}
