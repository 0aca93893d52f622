import { z } from 'zod';
import { notificationKinds } from '../api/notifications.ts';

/** One stream per person, apart from the user stream: what they want to be told, and how. */
export const notificationPreferencesStream = (userId: string) =>
  `notification-preferences-${userId}`;

export const notificationPreferenceEventSchemas = {
  /** `via`: the profile page, or the unsubscribe link in an email. */
  EmailNotificationsChanged: z.object({
    userId: z.string(),
    kind: z.enum(notificationKinds),
    email: z.boolean(),
    via: z.enum(['profile', 'unsubscribe_link']),
  }),
  /** A kind switched on or off for text messages (sent only with the user's SMS consent). */
  SmsNotificationsChanged: z.object({
    userId: z.string(),
    kind: z.enum(notificationKinds),
    sms: z.boolean(),
    via: z.literal('profile'),
  }),
} as const;

export type EmailNotificationsChanged = {
  type: 'EmailNotificationsChanged';
  data: z.infer<typeof notificationPreferenceEventSchemas.EmailNotificationsChanged>;
};
export type SmsNotificationsChanged = {
  type: 'SmsNotificationsChanged';
  data: z.infer<typeof notificationPreferenceEventSchemas.SmsNotificationsChanged>;
};
export type NotificationPreferenceEvent = EmailNotificationsChanged | SmsNotificationsChanged;
