import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditTrailEntry } from '@wagers/contracts/api/audit';
import { api } from '@/lib/api-client.ts';

/** GET /api/audit/trail: the latest looks auditors took, at one bet or at any. */
export function getAuditTrail(
  betId: string | null,
  { signal }: { signal?: AbortSignal } = {},
): Promise<AuditTrailEntry[]> {
  const query = betId ? `?betId=${encodeURIComponent(betId)}` : '';
  return api.get<AuditTrailEntry[]>(`/api/audit/trail${query}`, { signal });
}

export function getAuditTrailQueryOptions(betId: string | null) {
  return queryOptions({
    queryKey: ['/api/audit/trail', betId],
    queryFn: ({ signal }) => getAuditTrail(betId, { signal }),
  });
}

export function useAuditTrail(betId: string | null, { enabled = true } = {}) {
  return useQuery({ ...getAuditTrailQueryOptions(betId), enabled });
}
