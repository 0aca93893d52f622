import { z } from 'zod';
import { wagerTypes } from './bets.ts';

/** POST /api/invites: an email, or a phone in international format with SMS consent. */
export const createInviteRequestSchema = z.object({
  inviteeEmail: z.string().nullish(),
  inviteePhone: z.string().nullish(),
  smsConsent: z.boolean().nullish(),
  message: z.string().trim().max(500).nullish(),
});
export type CreateInviteRequest = z.input<typeof createInviteRequestSchema>;

export const createInviteResponseSchema = z.object({
  code: z.string(),
  inviteLink: z.string(),
  status: z.literal('pending'),
});
export type CreateInviteResponse = z.infer<typeof createInviteResponseSchema>;

/** GET /api/invites/{code}: public. */
export const inviteViewSchema = z.object({
  code: z.string(),
  status: z.enum(['pending', 'accepted']),
  inviter: z.object({
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    email: z.string().nullable(),
    profileImageUrl: z.string().nullable(),
  }),
  bet: z
    .object({
      id: z.string(),
      title: z.string(),
      description: z.string(),
      wagerType: z.enum(wagerTypes),
      wagerAmount: z.string().nullable(),
      wagerDescription: z.string().nullable(),
    })
    .optional(),
  message: z.string().optional(),
});
export type InviteView = z.infer<typeof inviteViewSchema>;

export const acceptInviteResponseSchema = z.object({
  friendId: z.string(),
  betId: z.string().nullable(),
});
export type AcceptInviteResponse = z.infer<typeof acceptInviteResponseSchema>;
