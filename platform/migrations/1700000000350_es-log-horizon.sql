-- Up Migration
-- Readers of the global log read only rows written by transactions older than every transaction
-- still running that could write more rows. The snapshot's xmin is that bound for the whole
-- server: one transaction open in another database holds every follower here back although it
-- can never write to this table. Transaction ids are shared by the server but a transaction
-- writes to one database only, so a running transaction seen in another database is left out.
-- One that has ended since the snapshot, or whose database cannot be seen, still counts: the
-- bound can only be too low, never too high. Reading the server's activity costs a fraction of
-- a millisecond, so followers ask for this bound only once the cheap one has held them back.
CREATE FUNCTION es_log_horizon() RETURNS xid8
LANGUAGE plpgsql STABLE AS $$
DECLARE
  snapshot pg_snapshot := pg_current_snapshot();
  horizon xid8;
BEGIN
  IF pg_snapshot_xmin(snapshot) = pg_snapshot_xmax(snapshot) THEN
    RETURN pg_snapshot_xmax(snapshot);
  END IF;
  SELECT min(running.x) INTO horizon
  FROM pg_snapshot_xip(snapshot) AS running(x)
  WHERE NOT EXISTS (
    SELECT 1 FROM pg_stat_get_activity(NULL::integer) AS other
    WHERE other.backend_xid = running.x::xid
      AND other.datid <> (SELECT oid FROM pg_database WHERE datname = current_database())
  );
  RETURN coalesce(horizon, pg_snapshot_xmax(snapshot));
END
$$;

-- Down Migration
DROP FUNCTION es_log_horizon();
