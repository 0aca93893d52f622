-- Up Migration
-- A projector's page transaction writes read models and its checkpoint, never the log, yet while
-- it runs it held back every reader of the log like an append would: with a dozen followers
-- committing pages one after another, some page was nearly always open, and the log became
-- visible only as fast as the slowest page. Connections that never append say so with their
-- application name (`wagers-read-models`, set by the projector runner), and their transactions
-- are left out of the horizon, as those of other databases are. As before, a transaction whose
-- backend cannot be seen still counts: the bound can only be too low, never too high.
CREATE OR REPLACE FUNCTION es_log_horizon() RETURNS xid8
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
      AND (other.datid <> (SELECT oid FROM pg_database WHERE datname = current_database())
           OR other.application_name = 'wagers-read-models')
  );
  RETURN coalesce(horizon, pg_snapshot_xmax(snapshot));
END
$$;

-- Down Migration
CREATE OR REPLACE FUNCTION es_log_horizon() RETURNS xid8
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
