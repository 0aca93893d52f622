import pg from 'pg';
import type { ClientBase } from 'pg';
import { comparePositions, parsePosition, type GlobalPosition } from '@wagers/contracts/position';
import { lockBuild, readBuilds, type BuildRow } from './checkpoints.ts';
import { BUILDS_CHANNEL, PROJECTIONS_CHANNEL, type Projector } from './projector.ts';

/** A refusal an operator reads as it is. */
export class BuildRefused extends Error {
  override readonly name = 'BuildRefused';
}

/**
 * A switch gave way to a transaction reading the projector's views: it waited `SWITCH_LOCK_TIMEOUT_MS`
 * for it and no longer, since every read of those views queues behind a switch that waits.
 */
export class ViewsBusy extends BuildRefused {}

const UNIQUE_VIOLATION = '23505';
const LOCK_NOT_AVAILABLE = '55P03';
/** The longest a switch waits for the views, every new read of them waiting behind it meanwhile. */
export const SWITCH_LOCK_TIMEOUT_MS = 1000;
const SAFE_NAME = /^[a-z][a-z0-9_-]*$/;

/** `proj_<name>_b<build>`, a hyphen in the name becoming an underscore. */
export function buildSchemaName(name: string, build: number): string {
  if (!SAFE_NAME.test(name)) throw new Error(`Projector name "${name}" cannot name a schema`);
  return `proj_${name.replaceAll('-', '_')}_b${build}`;
}

const id = (name: string) => pg.escapeIdentifier(name);

async function notifyBuilds(client: ClientBase, name: string): Promise<void> {
  await client.query('SELECT pg_notify($1, $2), pg_notify($3, $2)', [
    BUILDS_CHANNEL,
    name,
    PROJECTIONS_CHANNEL,
  ]);
}

/**
 * The row of a follower without tables, unless it has one: its one build, live from the start, or
 * from `from` (the log's head for a follower that starts there) when it is new.
 */
export async function ensureFollowerBuild(
  client: ClientBase,
  projector: Pick<Projector, 'name' | 'version'>,
  from: GlobalPosition | null = null,
): Promise<void> {
  const [major, minor] = from ? parsePosition(from) : [0n, 0n];
  await client.query(
    `INSERT INTO projection_checkpoints
       (name, build, version, status, position, position_major, position_minor)
     VALUES ($1, 1, $2, 'live', $3, $4, $5)
     ON CONFLICT DO NOTHING`,
    [projector.name, projector.version, from, major.toString(), minor.toString()],
  );
}

/**
 * Sends a follower without tables back to the start of the log: its build gives way to the next,
 * which starts from nothing. A new build, not the same one moved back, so that word of the old
 * build's moves still on its way (notices leave after their commits) is not taken for the new
 * one's, and its runner follows the new build from the start as it would after a switch.
 */
export async function rewindFollower(client: ClientBase, name: string): Promise<void> {
  const moved = await client.query(
    `UPDATE projection_checkpoints
       SET build = $2, position = NULL, position_major = 0, position_minor = 0,
           events = 0, error = NULL, error_position = NULL, error_event_id = NULL,
           created_at = now(), switched_at = now(), updated_at = now()
     WHERE name = $1 AND status = 'live' AND schema_name IS NULL`,
    [name, await nextBuildNumber(client, name)],
  );
  if (moved.rowCount !== 1) throw new BuildRefused(`${name} is not a follower without tables`);
  await notifyBuilds(client, name);
}

/**
 * The number the projector's next build takes: one past any it was given, dropped builds included
 * (decided in the caller's transaction, which a refusal rolls back with the number).
 */
async function nextBuildNumber(client: ClientBase, name: string): Promise<number> {
  const { rows } = await client.query<{ last_build: number }>(
    `INSERT INTO projection_build_numbers AS n (name, last_build)
       SELECT $1, coalesce(max(build), 0) + 1 FROM projection_checkpoints WHERE name = $1
     ON CONFLICT (name) DO UPDATE
       SET last_build = greatest(n.last_build + 1, excluded.last_build)
     RETURNING last_build`,
    [name],
  );
  return rows[0]!.last_build;
}

/**
 * Starts a new build of the projector's current version: a schema with its tables (no secondary
 * indexes yet) and a checkpoint at the start of the log. Refused while another build is under way.
 */
export async function createBuild(
  client: ClientBase,
  projector: Projector,
  options: { autoSwitch?: boolean } = {},
): Promise<BuildRow> {
  if (!projector.schema) throw new BuildRefused(`${projector.name} has no tables to rebuild`);
  await client.query('SAVEPOINT create_build');
  try {
    const build = await nextBuildNumber(client, projector.name);
    const schema = buildSchemaName(projector.name, build);
    await client.query(
      `INSERT INTO projection_checkpoints (name, build, version, status, schema_name, indexed, auto_switch)
       VALUES ($1, $2, $3, 'building', $4, false, $5)`,
      [projector.name, build, projector.version, schema, options.autoSwitch ?? true],
    );
    await client.query(`DROP SCHEMA IF EXISTS ${id(schema)} CASCADE`);
    await client.query(`CREATE SCHEMA ${id(schema)}`);
    await client.query(`SET LOCAL search_path TO ${id(schema)}, public`);
    await client.query(projector.schema.tables);
    await client.query('SET LOCAL search_path TO DEFAULT');
    await client.query('RELEASE SAVEPOINT create_build');
    await notifyBuilds(client, projector.name);
    return (await lockBuild(client, projector.name, build))!;
  } catch (error) {
    await client.query('ROLLBACK TO SAVEPOINT create_build');
    if (error instanceof pg.DatabaseError && error.code === UNIQUE_VIOLATION) {
      const building = (await readBuilds(client, projector.name)).find(
        (row) => row.status === 'building',
      );
      throw new BuildRefused(
        `${projector.name} is already being rebuilt (build ${building?.build ?? '?'}); ` +
          'wait for it, or retire that build first',
      );
    }
    throw error;
  }
}

/** Adds the secondary indexes a bulk-loaded build left out, and ends its bulk load. */
export async function finishBulkLoad(client: ClientBase, projector: Projector, row: BuildRow) {
  if (projector.schema && row.schemaName) {
    // Each index sorts the whole table once: in memory, rather than through temporary files.
    await client.query(`SET LOCAL maintenance_work_mem TO '256MB'`);
    await client.query(`SET LOCAL search_path TO ${id(row.schemaName)}, public`);
    await client.query(projector.schema.indexes);
    await client.query('SET LOCAL search_path TO DEFAULT');
  }
  await client.query(
    'UPDATE projection_checkpoints SET indexed = true WHERE name = $1 AND build = $2',
    [row.name, row.build],
  );
}

/** A column of a view or table as PostgreSQL keeps it: name, type (with modifier) and collation. */
interface ViewColumn {
  name: string;
  type: number;
  typmod: number;
  collation: number;
}

/**
 * Whether `CREATE OR REPLACE VIEW` can give a view with `current` columns the `next` ones:
 * PostgreSQL keeps every column a view has, in its place, with its name, type and collation, and
 * lets a replacement only add columns after them.
 */
function replaceableView(current: ViewColumn[], next: ViewColumn[]): boolean {
  return (
    next.length >= current.length &&
    current.every(
      (column, i) =>
        column.name === next[i]!.name &&
        column.type === next[i]!.type &&
        column.typmod === next[i]!.typmod &&
        column.collation === next[i]!.collation,
    )
  );
}

/**
 * Points each table's view in `public` at the table in `schema`. A view whose columns the build
 * keeps is replaced, which keeps the view (and whatever waits on it); one whose columns changed
 * is made anew. Which one is known before anything is sent, so no statement fails on the way.
 */
async function pointViews(client: ClientBase, tables: string[], schema: string): Promise<void> {
  const found = await client.query<ViewColumn & { schema: string; relation: string }>(
    `SELECT n.nspname AS schema, c.relname AS relation, a.attname AS name,
            a.atttypid AS type, a.atttypmod AS typmod, a.attcollation AS collation
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE c.relname = ANY($1)
        AND ((n.nspname = 'public' AND c.relkind = 'v') OR (n.nspname = $2 AND c.relkind = 'r'))
      ORDER BY c.relname, a.attnum`,
    [tables, schema],
  );
  const columns = (where: string, table: string) =>
    found.rows.filter((row) => row.schema === where && row.relation === table);
  for (const table of tables) {
    const view = columns('public', table);
    const sql = `VIEW public.${id(table)} AS SELECT * FROM ${id(schema)}.${id(table)}`;
    if (view.length > 0 && replaceableView(view, columns(schema, table))) {
      await client.query(`CREATE OR REPLACE ${sql}`);
      continue;
    }
    if (view.length > 0) await client.query(`DROP VIEW public.${id(table)}`);
    await client.query(`CREATE ${sql}`);
  }
}

/**
 * Switches reads to a build in one transaction: the views point at its tables, it becomes live
 * and the build that was live retires. Returns false while the build is still behind the live one
 * (the caller tries again later); refuses a build that cannot take over at all.
 */
export async function switchBuild(
  client: ClientBase,
  projector: Pick<Projector, 'name' | 'tables'>,
  build: number,
): Promise<boolean> {
  const rows = await client.query<{ build: number }>(
    `SELECT build FROM projection_checkpoints
     WHERE name = $1 AND (status = 'live' OR build = $2) ORDER BY build FOR UPDATE`,
    [projector.name, build],
  );
  const locked = await Promise.all(
    rows.rows.map((row) => lockBuild(client, projector.name, row.build)),
  );
  const target = locked.find((row) => row?.build === build);
  const live = locked.find((row) => row?.status === 'live');
  if (!target) throw new BuildRefused(`${projector.name} has no build ${build}`);
  if (target.status !== 'building')
    throw new BuildRefused(`${projector.name} build ${build} is ${target.status}, not building`);
  if (live && target.version < live.version) {
    throw new BuildRefused(
      `${projector.name} build ${build} is of version ${target.version}, older than the live ` +
        `build ${live.build} (version ${live.version}): reads never switch back to an older version`,
    );
  }
  // Stopped at an event (the live build may have stopped at the same one): not until it is past.
  if (!target.indexed || !target.schemaName || target.error !== null) return false;
  if (live?.position && (!target.position || comparePositions(target.position, live.position) < 0))
    return false;
  // Pointing a view takes its ACCESS EXCLUSIVE lock, which waits for every transaction that has
  // read it, and every read after it waits in turn: behind a reader left open (a psql session),
  // the switch gives way within a moment rather than hold up all reads of the projector.
  await client.query(`SET LOCAL lock_timeout = ${SWITCH_LOCK_TIMEOUT_MS}`);
  try {
    await pointViews(client, projector.tables, target.schemaName);
  } catch (error) {
    if (error instanceof pg.DatabaseError && error.code === LOCK_NOT_AVAILABLE) {
      throw new ViewsBusy(
        `reads of ${projector.name} are held by a transaction open for longer than ` +
          `${SWITCH_LOCK_TIMEOUT_MS / 1000} s, so the switch to build ${build} gave way rather than hold up ` +
          'every read behind it; try again once it ends (pg_stat_activity shows it)',
      );
    }
    throw error;
  }
  await client.query('SET LOCAL lock_timeout TO DEFAULT');
  if (live) {
    await client.query(
      `UPDATE projection_checkpoints SET status = 'retired', retired_at = now()
       WHERE name = $1 AND build = $2`,
      [projector.name, live.build],
    );
  }
  await client.query(
    `UPDATE projection_checkpoints SET status = 'live', switched_at = now()
     WHERE name = $1 AND build = $2`,
    [projector.name, build],
  );
  await notifyBuilds(client, projector.name);
  return true;
}

/**
 * Gives up a build under way that the code can no longer fill: it retires (its tables stay for the
 * grace period, like any retired build's), so a build of the code's version can take its place.
 * False if it is no longer under way.
 */
export async function retireBuildUnderWay(
  client: ClientBase,
  name: string,
  build: number,
): Promise<boolean> {
  const row = await lockBuild(client, name, build);
  if (row?.status !== 'building') return false;
  await client.query(
    `UPDATE projection_checkpoints SET status = 'retired', retired_at = now()
     WHERE name = $1 AND build = $2`,
    [name, build],
  );
  await notifyBuilds(client, name);
  return true;
}

/** Drops a build that no read uses (retired, or abandoned while building), tables and all. */
export async function dropBuild(client: ClientBase, name: string, build: number): Promise<void> {
  const row = await lockBuild(client, name, build);
  if (!row) throw new BuildRefused(`${name} has no build ${build}`);
  if (row.status === 'live')
    throw new BuildRefused(`${name} build ${build} is live; switch to another build first`);
  if (row.schemaName) await client.query(`DROP SCHEMA IF EXISTS ${id(row.schemaName)} CASCADE`);
  await client.query('DELETE FROM projection_checkpoints WHERE name = $1 AND build = $2', [
    name,
    build,
  ]);
  await notifyBuilds(client, name);
}

/**
 * When a retired build's tables go: once the grace period has passed, so an operator can still
 * look at them, or at once for a build that never applied an event (a fresh database's first
 * build, replaced before the log held anything), which has nothing to look at. Null for a build
 * that is not retired.
 */
export function dropTime(row: BuildRow, graceMs: number): number | null {
  if (row.status !== 'retired' || !row.retiredAt) return null;
  return row.retiredAt.getTime() + (row.position === null ? 0 : graceMs);
}

/** Retired builds whose time to go has come (see `dropTime`). */
export function expiredBuilds(rows: BuildRow[], graceMs: number, now = Date.now()): BuildRow[] {
  return rows.filter((row) => {
    const at = dropTime(row, graceMs);
    return at !== null && at <= now;
  });
}
