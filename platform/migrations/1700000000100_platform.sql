-- Up Migration
-- Where each projector (and each other follower of the log) has got to.
CREATE TABLE projection_checkpoints (
  name text PRIMARY KEY,
  version integer NOT NULL,
  position text,
  position_major numeric(20) NOT NULL DEFAULT 0,
  position_minor numeric(20) NOT NULL DEFAULT 0,
  status text NOT NULL DEFAULT 'running',
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Sessions: the cookie holds a random token; only its SHA-256 is stored.
CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL,
  -- Log position of the sign-in's writes, so reads made with this session wait for them.
  position text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_expires_at ON sessions (expires_at);

-- Email sign-in links: single use, short lived, stored hashed.
CREATE TABLE login_tokens (
  token_hash text PRIMARY KEY,
  email text NOT NULL,
  redirect text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX login_tokens_email ON login_tokens (email, created_at);

-- Development inbox and SMS outbox (only written when no SMTP / Twilio settings are given).
CREATE TABLE dev_outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  channel text NOT NULL CHECK (channel IN ('email', 'sms')),
  recipient text NOT NULL,
  subject text,
  text_body text NOT NULL,
  html_body text,
  sent_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE dev_outbox;
DROP TABLE login_tokens;
DROP TABLE sessions;
DROP TABLE projection_checkpoints;
