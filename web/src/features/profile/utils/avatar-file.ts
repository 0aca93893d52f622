import { AVATAR_MAX_BYTES, avatarContentTypes } from '@wagers/contracts/api/avatar-rules';

/** The picker's `accept`: the image types the server stores, no others. */
export const avatarAccept = avatarContentTypes.join(',');

const isAvatarType = (type: string): boolean =>
  (avatarContentTypes as readonly string[]).includes(type);

/** Why a chosen file cannot be an avatar, or null when it can. */
export function avatarFileProblem(file: Pick<File, 'type' | 'size'>): string | null {
  if (!isAvatarType(file.type)) return 'Please select an image file';
  if (file.size > AVATAR_MAX_BYTES) return 'Please select an image smaller than 5MB';
  return null;
}
