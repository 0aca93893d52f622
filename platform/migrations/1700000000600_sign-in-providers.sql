-- Up Migration
-- A provider sign-in in flight is bound to the browser that began it (a cookie, hashed here), has
-- a nonce when the provider speaks OpenID Connect, and keeps what a form_post provider posted.
ALTER TABLE oauth_states
  ADD COLUMN nonce text,
  ADD COLUMN browser_hash text,
  ADD COLUMN posted text;

-- Which account a provider's person is: a provider that gives no email (X may not) finds the
-- account by its own id for the person, once that person has confirmed an email.
CREATE TABLE provider_identities (
  provider text NOT NULL,
  subject text NOT NULL,
  user_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, subject)
);

-- A provider sign-in that gave no email, waiting for the person to type one (hashed token).
CREATE TABLE provider_pending (
  token_hash text PRIMARY KEY,
  provider text NOT NULL,
  subject text NOT NULL,
  redirect text,
  expires_at timestamptz NOT NULL
);

-- A sign-in link asked for from such a sign-in remembers the provider's id for the person.
ALTER TABLE login_tokens
  ADD COLUMN provider text,
  ADD COLUMN provider_subject text;

-- Down Migration
ALTER TABLE login_tokens DROP COLUMN provider, DROP COLUMN provider_subject;
DROP TABLE provider_pending;
DROP TABLE provider_identities;
ALTER TABLE oauth_states DROP COLUMN nonce, DROP COLUMN browser_hash, DROP COLUMN posted;
