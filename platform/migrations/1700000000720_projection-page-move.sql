-- Up Migration
-- A live page in one round trip (decision 27): the page's first statement moves its build's
-- checkpoint from where its follower left it, taking the row's lock for the rest of the page as
-- `SELECT ... FOR UPDATE` did, and raises when the build is retired, dropped or was moved by an
-- operator, so the page's writes behind it in the same transaction never commit. SQLSTATE WP001
-- tells the follower it was not the projector that failed.
CREATE OR REPLACE FUNCTION projection_page_move(
  p_name text, p_build integer, p_from text, p_to text, p_major numeric, p_minor numeric,
  p_applied bigint
) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  moved text;
BEGIN
  UPDATE projection_checkpoints
     SET position = p_to, position_major = p_major, position_minor = p_minor,
         events = events + p_applied,
         error = NULL, error_position = NULL, error_event_id = NULL, updated_at = now()
   WHERE name = p_name AND build = p_build
     AND position IS NOT DISTINCT FROM p_from AND status <> 'retired'
  RETURNING status INTO moved;
  IF moved IS NULL THEN
    RAISE EXCEPTION 'build % of % is not where its follower left it', p_build, p_name
      USING ERRCODE = 'WP001';
  END IF;
  RETURN moved;
END
$$;

-- Down Migration
DROP FUNCTION projection_page_move(text, integer, text, text, numeric, numeric, bigint);
