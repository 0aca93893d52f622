import type { AcceptInviteResponse } from '@wagers/contracts/api/invites';
import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';
import { getInviteQueryOptions } from './get-invite.ts';

/** POST /api/invites/{code}/accept: makes the two users friends and activates the bet, if any. */
export function acceptInvite(code: string): Promise<AcceptInviteResponse> {
  return api.post<AcceptInviteResponse>(`/api/invites/${encodeURIComponent(code)}/accept`);
}

export function useAcceptInvite(
  code: string,
  { mutationConfig }: { mutationConfig?: MutationConfig<typeof acceptInvite> } = {},
) {
  return useApiMutation(acceptInvite, {
    invalidates: [getInviteQueryOptions(code).queryKey],
    errorToast: {
      title: 'Error',
      description: 'Failed to accept invite',
      preferServerMessage: true,
    },
    config: mutationConfig,
  });
}
