import { z } from 'zod';
import { AVATAR_MAX_BYTES, avatarContentTypes } from './avatar-rules.ts';

const name = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100, `${label} must be at most 100 characters`);

export const updateProfileRequestSchema = z.object({
  firstName: name('First name'),
  lastName: name('Last name'),
});
export type UpdateProfileRequest = z.infer<typeof updateProfileRequestSchema>;

export { AVATAR_MAX_BYTES, avatarContentTypes } from './avatar-rules.ts';

export const avatarUploadUrlRequestSchema = z.object({
  contentType: z.enum(avatarContentTypes).optional(),
  size: z.number().int().min(1).max(AVATAR_MAX_BYTES).optional(),
});
export const avatarUploadUrlResponseSchema = z.object({ uploadURL: z.string() });
export type AvatarUploadUrlResponse = z.infer<typeof avatarUploadUrlResponseSchema>;

export const setAvatarRequestSchema = z.object({ avatarURL: z.string().min(1) });
export type SetAvatarRequest = z.infer<typeof setAvatarRequestSchema>;
