import { z } from 'zod';

export const emailSchema = z
  .string({ error: 'Enter an email address' })
  .trim()
  .toLowerCase()
  .max(254, 'Email is too long')
  .pipe(z.email({ error: 'Enter a valid email address' }));

/** A path on this site: starts with one slash, not two, and no backslash tricks. */
export const localRedirectSchema = z
  .string()
  .max(2000)
  .refine(
    (value) => /^\/(?![/\\])/.test(value) && !/[\r\n\\]/.test(value),
    'Must be a path on this site',
  );

export const emailLoginRequestSchema = z.object({
  email: emailSchema,
  redirect: localRedirectSchema.optional(),
});
export type EmailLoginRequest = z.infer<typeof emailLoginRequestSchema>;

/** Confirms a sign-in link by POST, so opening the link (or a scanner prefetching it) uses nothing. */
export const loginConfirmRequestSchema = z.object({
  token: z.string().min(1).max(200),
});
export type LoginConfirmRequest = z.infer<typeof loginConfirmRequestSchema>;

/** The email a person gives when their provider shared none; confirmed by a link before use. */
export const providerEmailRequestSchema = z.object({
  pending: z.string().min(1).max(200),
  email: emailSchema,
});
export type ProviderEmailRequest = z.infer<typeof providerEmailRequestSchema>;
