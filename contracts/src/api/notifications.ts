import { z } from 'zod';

/** What a person can be told about, each switched on or off for email and SMS on the profile page. */
export const notificationKinds = [
  'bet_proposed',
  'bet_answered',
  'outcome_reported',
  'reports_disagree',
  'bet_completed',
  'invite_accepted',
  'friend_request',
  'reminders',
] as const;
export type NotificationKind = (typeof notificationKinds)[number];

export const notificationKindLabels: Record<NotificationKind, string> = {
  bet_proposed: 'A friend proposes a bet to you',
  bet_answered: 'Your bet is accepted or declined, or the other side leaves it',
  outcome_reported: 'The other side reports an outcome',
  reports_disagree: 'Your reports disagree',
  bet_completed: 'A bet completes',
  invite_accepted: 'Your invite is accepted',
  friend_request: 'Someone sends you a friend request',
  reminders: 'A bet waits for your report',
};

/**
 * PUT /api/notification-preferences: one kind switched on or off on one channel, `email` or
 * `sms` (exactly one of them). Texts go only to a number with SMS consent on the profile.
 */
export const notificationPreferenceRequestSchema = z
  .object({
    kind: z.enum(notificationKinds),
    email: z.boolean().optional(),
    sms: z.boolean().optional(),
  })
  .refine((body) => (body.email === undefined) !== (body.sms === undefined), {
    message: 'Give either email or sms',
    path: ['email'],
  });
export type NotificationPreferenceRequest = z.infer<typeof notificationPreferenceRequestSchema>;

/**
 * GET /api/notification-preferences: every kind, whether it is emailed (on by default) and
 * whether it is texted (off by default, and only ever with SMS consent).
 */
export const notificationPreferencesSchema = z.array(
  z.object({ kind: z.enum(notificationKinds), email: z.boolean(), sms: z.boolean() }),
);
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;
