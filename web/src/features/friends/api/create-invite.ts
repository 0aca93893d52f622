import type { CreateInviteRequest, CreateInviteResponse } from '@wagers/contracts/api/invites';
import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';

/** POST /api/invites: only the channel that was filled in is sent. */
export function createInvite(body: CreateInviteRequest): Promise<CreateInviteResponse> {
  return api.post<CreateInviteResponse>('/api/invites', body);
}

export function useCreateInvite({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof createInvite> } = {}) {
  return useApiMutation(createInvite, {
    errorToast: {
      title: 'Error',
      description: 'Failed to send invitation',
      preferServerMessage: true,
    },
    config: mutationConfig,
  });
}
