import type { ProjectorSchema } from '@wagers/platform/projections/projector';

/** The notification-preferences projector's tables, as each of its builds makes them in its own schema. */
export const notificationPreferencesSchema: ProjectorSchema = {
  tables: `
    -- Kinds of notification a person switched off for email (a kind without a row is emailed).
    CREATE TABLE rm_notification_preferences (
      user_id uuid NOT NULL,
      kind text NOT NULL,
      email boolean NOT NULL,
      -- Revision of notification-preferences-{user} this row reflects.
      revision bigint NOT NULL,
      PRIMARY KEY (user_id, kind)
    );`,
  indexes: `
`,
};
