import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InviteView } from '@wagers/contracts/api/invites';
import { api } from '@/lib/api-client.ts';

/** GET /api/invites/{code}: public; any non-OK answer means the invite is not found. */
export function getInvite(
  code: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<InviteView> {
  return api.get<InviteView>(`/api/invites/${encodeURIComponent(code)}`, { signal });
}

export function getInviteQueryOptions(code: string) {
  return queryOptions({
    queryKey: ['/api/invites', code],
    queryFn: ({ signal }) => getInvite(code, { signal }),
  });
}

export function useInvite(code: string) {
  return useQuery(getInviteQueryOptions(code));
}
