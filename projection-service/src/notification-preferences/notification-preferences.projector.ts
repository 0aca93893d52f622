import { notificationPreferenceEventSchemas } from '@wagers/contracts/events/notification-preferences';
import type { Projector } from '@wagers/platform/projections/projector';
import { notificationPreferencesSchema } from './notification-preferences.schema.ts';

/**
 * rm_notification_preferences: what each person chose on the profile page or by unsubscribing,
 * one column per channel. A row's revision guards both: a replayed event changes nothing.
 */
export const notificationPreferencesProjector: Projector = {
  name: 'notification-preferences',
  version: 2,
  eventTypes: new Set(Object.keys(notificationPreferenceEventSchemas)),
  schema: notificationPreferencesSchema,
  tables: ['rm_notification_preferences'],
  async apply(client, event) {
    const schemas = notificationPreferenceEventSchemas;
    const [column, data] =
      event.type === 'EmailNotificationsChanged'
        ? (['email', schemas.EmailNotificationsChanged.parse(event.data)] as const)
        : event.type === 'SmsNotificationsChanged'
          ? (['sms', schemas.SmsNotificationsChanged.parse(event.data)] as const)
          : [];
    if (!column) return;
    const on = 'email' in data ? data.email : data.sms;
    await client.query(
      `INSERT INTO rm_notification_preferences (user_id, kind, ${column}, revision)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, kind) DO UPDATE SET ${column} = $3, revision = $4
       WHERE rm_notification_preferences.revision < $4`,
      [data.userId, data.kind, on, event.revision.toString()],
    );
  },
};
