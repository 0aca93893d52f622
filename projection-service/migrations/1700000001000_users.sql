-- Up Migration
CREATE TABLE rm_users (
  id uuid PRIMARY KEY,
  email text NOT NULL,
  first_name text,
  last_name text,
  profile_image_url text,
  created_at timestamptz NOT NULL,
  -- Revision of user-{id} this row reflects; a replayed event at or below it is a no-op.
  revision bigint NOT NULL
);
CREATE UNIQUE INDEX rm_users_email ON rm_users (lower(email));

-- Down Migration
DROP TABLE rm_users;
