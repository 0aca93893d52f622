-- Up Migration
-- Hits per rule and key in fixed windows; old windows are deleted as they pass.
CREATE TABLE rate_limit_hits (
  bucket text NOT NULL,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (bucket, window_start)
);

-- Down Migration
DROP TABLE rate_limit_hits;
