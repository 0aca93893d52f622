-- Up Migration
-- A session remembers the furthest log position written on its behalf (its own commands and what
-- process managers did in answer), so every read made with it waits for them, in any tab.
ALTER TABLE sessions
  ADD COLUMN position_major numeric(20) NOT NULL DEFAULT 0,
  ADD COLUMN position_minor numeric(20) NOT NULL DEFAULT 0;
UPDATE sessions
  SET position_major = split_part(position, '-', 1)::numeric,
      position_minor = split_part(position, '-', 2)::numeric
  WHERE position IS NOT NULL;
CREATE INDEX sessions_user_id ON sessions (user_id);

-- Down Migration
DROP INDEX sessions_user_id;
ALTER TABLE sessions DROP COLUMN position_major, DROP COLUMN position_minor;
