import { notificationPreferenceEventSchemas } from '@wagers/contracts/events/notification-preferences';
import type { Projector } from '@wagers/platform/projections/projector';
import { notificationPreferencesSchema } from './notification-preferences.schema.ts';

/** rm_notification_preferences: what each person chose on the profile page or by unsubscribing. */
export const notificationPreferencesProjector: Projector = {
  name: 'notification-preferences',
  version: 1,
  schema: notificationPreferencesSchema,
  tables: ['rm_notification_preferences'],
  async apply(client, event) {
    if (event.type !== 'EmailNotificationsChanged') return;
    const data = notificationPreferenceEventSchemas.EmailNotificationsChanged.parse(event.data);
    await client.query(
      `INSERT INTO rm_notification_preferences (user_id, kind, email, revision)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, kind) DO UPDATE SET email = $3, revision = $4
       WHERE rm_notification_preferences.revision < $4`,
      [data.userId, data.kind, data.email, event.revision.toString()],
    );
  },
};
