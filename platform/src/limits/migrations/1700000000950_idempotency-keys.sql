-- Up Migration
-- What a caller's Idempotency-Key stands for, where the answer cannot be derived from the key: an
-- invite's code is its only secret, so it is drawn at random for the first request and found here
-- by every retry. A key is kept for a day; old rows are deleted as they pass.
CREATE TABLE idempotency_keys (
  scope text NOT NULL,
  owner_id text NOT NULL,
  key text NOT NULL,
  value text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (scope, owner_id, key)
);

-- Down Migration
DROP TABLE idempotency_keys;
