import type { CreateInviteRequest, CreateInviteResponse } from '@wagers/contracts/api/invites';
import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';

interface CreateInviteInput {
  body: CreateInviteRequest;
  /** The same for a retry of the same invitation, so it is sent once. */
  idempotencyKey: string;
}

/** POST /api/invites: only the channel that was filled in is sent. */
export function createInvite({
  body,
  idempotencyKey,
}: CreateInviteInput): Promise<CreateInviteResponse> {
  return api.post<CreateInviteResponse>('/api/invites', body, { idempotencyKey });
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
