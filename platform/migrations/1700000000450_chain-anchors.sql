-- Up Migration
-- Where each stream's hash chain starts: events up to through_revision were written before hash
-- chains and carry no hash; `hash` is their chain, computed once when the stream was anchored.
-- The events themselves are never rewritten (docs/audit.md).
CREATE TABLE es_chain_anchors (
  stream_id text PRIMARY KEY,
  through_revision bigint NOT NULL,
  hash text NOT NULL,
  anchored_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE es_chain_anchors;
