-- Up Migration
-- Blue-green projections: a projector may have several builds at once, each filling tables in a
-- schema of its own (schema_name); the one whose status is 'live' is what reads see. Followers of
-- the log that own no tables (the notifier's dispatcher) have one build and no schema.
ALTER TABLE projection_checkpoints DROP CONSTRAINT projection_checkpoints_pkey;
ALTER TABLE projection_checkpoints ADD COLUMN build integer NOT NULL DEFAULT 1;
ALTER TABLE projection_checkpoints ADD PRIMARY KEY (name, build);
UPDATE projection_checkpoints SET status = 'live';
ALTER TABLE projection_checkpoints ALTER COLUMN status SET DEFAULT 'live';
ALTER TABLE projection_checkpoints
  ADD CONSTRAINT projection_checkpoints_status CHECK (status IN ('live', 'building', 'retired')),
  ADD COLUMN schema_name text,
  -- False while a build bulk loads without its secondary indexes.
  ADD COLUMN indexed boolean NOT NULL DEFAULT true,
  -- A build that has caught up takes over reads by itself unless the operator asked to switch by hand.
  ADD COLUMN auto_switch boolean NOT NULL DEFAULT true,
  -- Events this build has applied, for progress and rate.
  ADD COLUMN events bigint NOT NULL DEFAULT 0,
  -- The event that made the projector throw: it stops there until fixed or skipped.
  ADD COLUMN error text,
  ADD COLUMN error_position text,
  ADD COLUMN error_event_id uuid,
  ADD COLUMN created_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN switched_at timestamptz,
  ADD COLUMN retired_at timestamptz;
-- One live build per projector, and at most one being built.
CREATE UNIQUE INDEX projection_checkpoints_one_live ON projection_checkpoints (name) WHERE status = 'live';
CREATE UNIQUE INDEX projection_checkpoints_one_building ON projection_checkpoints (name) WHERE status = 'building';

-- Events an operator told a projector version to pass over (each also recorded in the log).
CREATE TABLE projection_skips (
  name text NOT NULL,
  version integer NOT NULL,
  event_id uuid NOT NULL,
  position text NOT NULL,
  skipped_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (name, version, event_id)
);

-- Down Migration
DROP TABLE projection_skips;
DROP INDEX projection_checkpoints_one_building;
DROP INDEX projection_checkpoints_one_live;
ALTER TABLE projection_checkpoints
  DROP CONSTRAINT projection_checkpoints_status,
  DROP COLUMN schema_name, DROP COLUMN indexed, DROP COLUMN auto_switch, DROP COLUMN events,
  DROP COLUMN error, DROP COLUMN error_position, DROP COLUMN error_event_id,
  DROP COLUMN created_at, DROP COLUMN switched_at, DROP COLUMN retired_at;
DELETE FROM projection_checkpoints WHERE status <> 'live';
ALTER TABLE projection_checkpoints DROP CONSTRAINT projection_checkpoints_pkey;
ALTER TABLE projection_checkpoints DROP COLUMN build;
ALTER TABLE projection_checkpoints ADD PRIMARY KEY (name);
ALTER TABLE projection_checkpoints ALTER COLUMN status SET DEFAULT 'running';
