import { z } from 'zod';
import { notificationKinds } from '../api/notifications.ts';

/** One stream per person, apart from the user stream: what they want to be told by email. */
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
} as const;

export type EmailNotificationsChanged = {
  type: 'EmailNotificationsChanged';
  data: z.infer<typeof notificationPreferenceEventSchemas.EmailNotificationsChanged>;
};
export type NotificationPreferenceEvent = EmailNotificationsChanged;
