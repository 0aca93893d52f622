import type { AvatarUploadUrlResponse } from '@wagers/contracts/api/profile';
import { api } from '@/lib/api-client.ts';

/** POST /api/avatar/upload-url: where to PUT the picture. */
export function getAvatarUploadUrl(
  file: Pick<File, 'type' | 'size'>,
): Promise<AvatarUploadUrlResponse> {
  return api.post<AvatarUploadUrlResponse>('/api/avatar/upload-url', {
    contentType: file.type,
    size: file.size,
  });
}
