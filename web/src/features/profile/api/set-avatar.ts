import type { SetAvatarRequest } from '@wagers/contracts/api/profile';
import type { User } from '@wagers/contracts/api/user';
import { api } from '@/lib/api-client.ts';

/** PUT /api/avatar: points the profile at the uploaded picture. */
export function setAvatar(body: SetAvatarRequest): Promise<User> {
  return api.put<User>('/api/avatar', body);
}
