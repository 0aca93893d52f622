-- Up Migration
-- Keys the product signs links with, by name, made on first use and kept apart from the event
-- log: whoever can read the log (an auditor, an export) can name an invite, but only a link
-- signed with the invite links' key opens it (docs/decisions/0033-invite-links-are-signed.md).
CREATE TABLE signing_keys (
  name text PRIMARY KEY,
  key bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE signing_keys;
