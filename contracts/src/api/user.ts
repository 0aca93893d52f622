import { z } from 'zod';

/** A user as every API response shows one (spec section 3). */
export const userSchema = z.object({
  id: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

/** GET /api/auth/user: the signed-in user; `isAuditor` is there only for auditors. */
export type SignedInUser = User & { isAuditor?: true };

export { displayName, initials } from './display.ts';
