import type { CreateBetRequest, CreateBetResponse } from '@wagers/contracts/api/bets';
import { api } from '@/lib/api-client.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';
import { getBetsQueryOptions } from './get-bets.ts';
import { getStatsQueryOptions } from './get-stats.ts';

export type CreateBetInput = {
  body: CreateBetRequest;
  /** The same key for every send of the same draft: a resend answers with the first bet. */
  idempotencyKey: string;
};

/** POST /api/bets. With an invitee, the response carries invite.inviteLink. */
export function createBet({ body, idempotencyKey }: CreateBetInput): Promise<CreateBetResponse> {
  return api.post<CreateBetResponse>('/api/bets', body, { idempotencyKey });
}

export function useCreateBet({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof createBet> } = {}) {
  return useApiMutation(createBet, {
    invalidates: [getBetsQueryOptions().queryKey, getStatsQueryOptions().queryKey],
    // A body the server refused names its fields: say what it said; anything else is a failure.
    errorToast: { title: 'Error', description: 'Failed to create bet', preferFieldErrors: true },
    config: mutationConfig,
  });
}
