import { z } from 'zod';
import { AVATAR_MAX_BYTES, avatarContentTypes } from './avatar-rules.ts';
import { NAME_MAX_LENGTH } from './profile-rules.ts';

const name = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(NAME_MAX_LENGTH, `${label} must be at most ${NAME_MAX_LENGTH} characters`);

export const updateProfileRequestSchema = z.object({
  firstName: name('First name'),
  lastName: name('Last name'),
});
export type UpdateProfileRequest = z.infer<typeof updateProfileRequestSchema>;

/** Deleting the account: the person types the account's email address again to confirm. */
export const deleteAccountRequestSchema = z.object({
  confirmEmail: z
    .string({ error: 'Type your email address to confirm' })
    .trim()
    .min(1, 'Type your email address to confirm')
    .max(320, 'Type your email address to confirm'),
});
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequestSchema>;
export const accountDeletedResponseSchema = z.object({ status: z.literal('deleted') });
export type AccountDeletedResponse = z.infer<typeof accountDeletedResponseSchema>;

export { AVATAR_MAX_BYTES, avatarContentTypes } from './avatar-rules.ts';

export const avatarUploadUrlRequestSchema = z.object({
  contentType: z.enum(avatarContentTypes).optional(),
  size: z.number().int().min(1).max(AVATAR_MAX_BYTES).optional(),
});
export const avatarUploadUrlResponseSchema = z.object({ uploadURL: z.string() });
export type AvatarUploadUrlResponse = z.infer<typeof avatarUploadUrlResponseSchema>;

export const setAvatarRequestSchema = z.object({ avatarURL: z.string().min(1) });
export type SetAvatarRequest = z.infer<typeof setAvatarRequestSchema>;

/**
 * A mobile number in E.164 (+ and country code, up to 15 digits). Spaces, dots, dashes and
 * brackets people type are dropped first, so "+1 (415) 555-0123" is +14155550123.
 */
export const phoneNumberSchema = z
  .string({ error: 'Phone number is required' })
  .transform((value) => value.replace(/[\s().-]/g, ''))
  .pipe(
    z
      .string()
      .regex(/^\+[1-9]\d{6,14}$/, 'Enter the number in international format, e.g. +1 415 555 0123'),
  );

/**
 * PUT /api/user/phone: your number (null removes it) and whether you agree to texts. Consent
 * needs a number; removing the number withdraws it.
 */
export const setPhoneRequestSchema = z
  .object({ phone: phoneNumberSchema.nullable(), smsConsent: z.boolean() })
  .refine((body) => body.phone !== null || !body.smsConsent, {
    message: 'Add a phone number to agree to text messages',
    path: ['smsConsent'],
  });
export type SetPhoneRequest = z.input<typeof setPhoneRequestSchema>;

/** GET and PUT /api/user/phone: your number, your SMS consent and when you gave it. */
export const phoneSettingsSchema = z.object({
  phone: z.string().nullable(),
  smsConsent: z.boolean(),
  consentedAt: z.string().nullable(),
});
export type PhoneSettings = z.infer<typeof phoneSettingsSchema>;
