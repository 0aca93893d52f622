-- Up Migration
-- One encryption key per data subject (a user, or an email address or phone number that may have
-- no account yet). Personal fields in the event log are sealed with these keys; deleting a row
-- makes what it sealed unreadable for good (docs/decisions/0018-crypto-shredding.md). `subject`
-- names a user by id and an address or number only by its SHA-256, never in clear.
CREATE TABLE data_keys (
  key_id uuid PRIMARY KEY,
  subject text NOT NULL UNIQUE,
  key bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Subjects whose keys were destroyed. Events written before personal fields were sealed hold them
-- in clear; the upcaster reads a listed subject's fields there as erased too.
CREATE TABLE erased_subjects (
  subject text PRIMARY KEY,
  erased_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE erased_subjects;
DROP TABLE data_keys;
