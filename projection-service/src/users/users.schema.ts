import type { ProjectorSchema } from '@wagers/platform/projections/projector';

/** The users projector's tables, as each of its builds makes them in its own schema. */
export const usersSchema: ProjectorSchema = {
  tables: `
    CREATE TABLE rm_users (
      id uuid PRIMARY KEY,
      -- Null once the account is deleted (or read after its key was destroyed).
      email text,
      first_name text,
      last_name text,
      profile_image_url text,
      created_at timestamptz NOT NULL,
      deleted_at timestamptz,
      -- Revision of user-{id} this row reflects; a replayed event at or below it is a no-op.
      revision bigint NOT NULL
    );
    CREATE UNIQUE INDEX rm_users_email ON rm_users (lower(email));`,
  indexes: `
    -- User search matches a prefix of the email, the first or the last name, case-insensitively:
    -- \`lower(col) LIKE 'prefix%'\` uses these (text_pattern_ops works whatever the collation).
    CREATE INDEX rm_users_search_email ON rm_users (lower(email) text_pattern_ops);
    CREATE INDEX rm_users_search_first_name ON rm_users (lower(first_name) text_pattern_ops);
    CREATE INDEX rm_users_search_last_name ON rm_users (lower(last_name) text_pattern_ops);`,
};
