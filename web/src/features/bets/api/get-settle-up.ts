import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SettleUpEntry } from '@wagers/contracts/api/settle-up';
import { api } from '@/lib/api-client.ts';

/** GET /api/settle-up: the net owed between you and each friend over every unpaid bet. */
export function getSettleUp({ signal }: { signal?: AbortSignal } = {}) {
  return api.get<SettleUpEntry[]>('/api/settle-up', { signal });
}

export function getSettleUpQueryOptions() {
  return queryOptions({ queryKey: ['/api/settle-up'], queryFn: getSettleUp });
}

export function useSettleUp() {
  return useQuery(getSettleUpQueryOptions());
}
