-- Up Migration
-- Hits per rule and key in fixed windows; old windows are deleted as they pass.
CREATE TABLE rate_limit_hits (
  bucket text NOT NULL,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (bucket, window_start)
);

-- Calls already counted, by the caller's token (an idempotency key): a retry counts once.
CREATE TABLE rate_limit_once (
  token text PRIMARY KEY,
  counted_at timestamptz NOT NULL
);

-- Down Migration
DROP TABLE rate_limit_once;
DROP TABLE rate_limit_hits;
