import { AVATAR_MAX_BYTES } from '@wagers/contracts/api/avatar-rules';

/** Why a chosen file cannot be an avatar, or null when it can. */
export function avatarFileProblem(file: Pick<File, 'type' | 'size'>): string | null {
  if (!file.type.startsWith('image/')) return 'Please select an image file';
  if (file.size > AVATAR_MAX_BYTES) return 'Please select an image smaller than 5MB';
  return null;
}
