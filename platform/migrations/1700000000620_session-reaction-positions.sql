-- Up Migration
-- The furthest position written for a session that a process manager may react to. Commands and
-- reads made with the session wait for the process managers to pass this one (not every write):
-- what they do in answer can only follow such a write.
ALTER TABLE sessions
  ADD COLUMN reaction_position text,
  ADD COLUMN reaction_major numeric(20) NOT NULL DEFAULT 0,
  ADD COLUMN reaction_minor numeric(20) NOT NULL DEFAULT 0;
UPDATE sessions
  SET reaction_position = position,
      reaction_major = position_major,
      reaction_minor = position_minor;

-- Down Migration
ALTER TABLE sessions
  DROP COLUMN reaction_position,
  DROP COLUMN reaction_major,
  DROP COLUMN reaction_minor;
