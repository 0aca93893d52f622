-- Up Migration
-- A provider sign-in in flight: the state sent to the provider (hashed) and the PKCE verifier.
CREATE TABLE oauth_states (
  state_hash text PRIMARY KEY,
  provider text NOT NULL,
  code_verifier text NOT NULL,
  redirect text,
  expires_at timestamptz NOT NULL
);

-- Down Migration
DROP TABLE oauth_states;
