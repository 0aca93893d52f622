-- Up Migration
-- The last build number each projector (or other follower of the log) was given. Numbers only go
-- up: a build dropped while being built (retire NAME BUILD) leaves its number used, so a later
-- build is never taken for it, by an operator reading logs and metrics or by a process still
-- hearing notices the dropped build sent.
CREATE TABLE projection_build_numbers (
  name text PRIMARY KEY,
  last_build integer NOT NULL
);
INSERT INTO projection_build_numbers (name, last_build)
  SELECT name, max(build) FROM projection_checkpoints GROUP BY name;

-- Down Migration
DROP TABLE projection_build_numbers;
