import type { ProjectorSchema } from '@wagers/platform/projections/projector';

/** The notification-preferences projector's tables, as each of its builds makes them in its own schema. */
export const notificationPreferencesSchema: ProjectorSchema = {
  tables: `
    -- What a person chose per kind of notification (a kind without a row is emailed, not texted).
    CREATE TABLE rm_notification_preferences (
      user_id uuid NOT NULL,
      kind text NOT NULL,
      email boolean NOT NULL DEFAULT true,
      sms boolean NOT NULL DEFAULT false,
      -- Revision of notification-preferences-{user} this row reflects.
      revision bigint NOT NULL,
      PRIMARY KEY (user_id, kind)
    );`,
  indexes: `
`,
};
