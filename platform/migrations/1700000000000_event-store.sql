-- Up Migration
-- The append-only event log. Readers of the global log order and page by
-- (transaction_id, global_position) and only read rows whose transaction id is below the oldest
-- transaction still running, so an event whose transaction commits late is never skipped.
CREATE TABLE es_events (
  global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  stream_id text NOT NULL,
  stream_revision bigint NOT NULL CHECK (stream_revision >= 0),
  event_id uuid NOT NULL UNIQUE,
  type text NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  CONSTRAINT es_events_stream_revision_unique UNIQUE (stream_id, stream_revision)
);
CREATE INDEX es_events_log_order ON es_events (transaction_id, global_position);

-- Down Migration
DROP TABLE es_events;
