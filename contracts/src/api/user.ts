import { z } from 'zod';

/** A user as every API response shows one (spec section 3). */
export const userSchema = z.object({
  id: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  createdAt: z.string(),
  /** Present for an account its person deleted: names, email and picture are gone. */
  deleted: z.literal(true).optional(),
});
export type User = z.infer<typeof userSchema>;

/** GET /api/auth/user: the signed-in user; `isAuditor` is there only for auditors. */
export const signedInUserSchema = userSchema.extend({ isAuditor: z.literal(true).optional() });
export type SignedInUser = z.infer<typeof signedInUserSchema>;

export { displayName, initials } from './display.ts';
