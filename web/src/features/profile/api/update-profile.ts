import type { UpdateProfileRequest } from '@wagers/contracts/api/profile';
import type { User } from '@wagers/contracts/api/user';
import { api } from '@/lib/api-client.ts';
import { getUserQueryOptions } from '@/lib/auth.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';

/** PUT /api/user: first and last name. */
export function updateProfile(body: UpdateProfileRequest): Promise<User> {
  return api.put<User>('/api/user', body);
}

export function useUpdateProfile({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof updateProfile> } = {}) {
  return useApiMutation(updateProfile, {
    invalidates: [getUserQueryOptions().queryKey],
    errorToast: {
      title: 'Update failed',
      description: 'Failed to update your name. Please try again.',
    },
    config: mutationConfig,
  });
}
