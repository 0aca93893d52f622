import { getUserQueryOptions } from '@/lib/auth.ts';
import { useApiMutation, type MutationConfig } from '@/lib/react-query.ts';
import { getAvatarUploadUrl } from './get-avatar-upload-url.ts';
import { putAvatarFile } from './put-avatar-file.ts';
import { setAvatar } from './set-avatar.ts';

/** The three calls of an avatar change, in order: ask where, upload there, then point the profile at it. */
export async function uploadAvatar(file: File): Promise<void> {
  const { uploadURL } = await getAvatarUploadUrl(file);
  await putAvatarFile(uploadURL, file);
  await setAvatar({ avatarURL: uploadURL });
}

export function useUploadAvatar({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof uploadAvatar> } = {}) {
  return useApiMutation(uploadAvatar, {
    invalidates: [getUserQueryOptions().queryKey],
    errorToast: {
      title: 'Upload failed',
      description: 'Failed to upload avatar. Please try again.',
    },
    config: mutationConfig,
  });
}
