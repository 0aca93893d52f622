import pg from 'pg';
import type { ClientBase, Pool } from 'pg';
import { isGlobalPosition, parsePosition, type GlobalPosition } from '@wagers/contracts/position';

export type BuildStatus = 'live' | 'building' | 'retired';

/** One build of a projector: its checkpoint, where its tables live, and how it is doing. */
export interface BuildRow {
  name: string;
  build: number;
  /** The projector version that fills it. */
  version: number;
  status: BuildStatus;
  position: GlobalPosition | null;
  schemaName: string | null;
  indexed: boolean;
  autoSwitch: boolean;
  events: number;
  error: string | null;
  errorPosition: GlobalPosition | null;
  errorEventId: string | null;
  createdAt: Date;
  switchedAt: Date | null;
  retiredAt: Date | null;
  updatedAt: Date;
}

const columns = `name, build, version, status, position, schema_name, indexed, auto_switch, events,
  error, error_position, error_event_id, created_at, switched_at, retired_at, updated_at`;

interface Row {
  name: string;
  build: number;
  version: number;
  status: BuildStatus;
  position: string | null;
  schema_name: string | null;
  indexed: boolean;
  auto_switch: boolean;
  events: string;
  error: string | null;
  error_position: string | null;
  error_event_id: string | null;
  created_at: Date;
  switched_at: Date | null;
  retired_at: Date | null;
  updated_at: Date;
}

function toBuild(row: Row): BuildRow {
  return {
    name: row.name,
    build: row.build,
    version: row.version,
    status: row.status,
    position: row.position,
    schemaName: row.schema_name,
    indexed: row.indexed,
    autoSwitch: row.auto_switch,
    events: Number(row.events),
    error: row.error,
    errorPosition: row.error_position,
    errorEventId: row.error_event_id,
    createdAt: row.created_at,
    switchedAt: row.switched_at,
    retiredAt: row.retired_at,
    updatedAt: row.updated_at,
  };
}

/** Every build of every follower of the log (or of one), by name and build. */
export async function readBuilds(db: Pool | ClientBase, name?: string): Promise<BuildRow[]> {
  const result = await db.query<Row>(
    `SELECT ${columns} FROM projection_checkpoints
     WHERE $1::text IS NULL OR name = $1 ORDER BY name, build`,
    [name ?? null],
  );
  return result.rows.map(toBuild);
}

/** The build reads of this projector's tables see now. */
export async function readLiveBuild(db: Pool | ClientBase, name: string): Promise<BuildRow | null> {
  return (await readBuilds(db, name)).find((row) => row.status === 'live') ?? null;
}

/** A live build and where it has got to. */
export interface LivePosition {
  build: number;
  position: GlobalPosition | null;
}

/** Where each projector's live build has got to: what reads of its tables see. */
export async function readLivePositions(db: Pool | ClientBase): Promise<Map<string, LivePosition>> {
  const result = await db.query<{ name: string; build: number; position: string | null }>(
    `SELECT name, build, position FROM projection_checkpoints WHERE status = 'live'`,
  );
  return new Map(
    result.rows.map((row) => [row.name, { build: row.build, position: row.position }]),
  );
}

/** Locks one build's row for this transaction; null once the build has been dropped. */
export async function lockBuild(
  client: ClientBase,
  name: string,
  build: number,
): Promise<BuildRow | null> {
  const result = await client.query<Row>(
    `SELECT ${columns} FROM projection_checkpoints WHERE name = $1 AND build = $2 FOR UPDATE`,
    [name, build],
  );
  return result.rows[0] ? toBuild(result.rows[0]) : null;
}

/**
 * `lockBuild` as a statement with its values written in, so a follower can send it in one round
 * trip with the statements that open its page's transaction; `lockedBuild` reads its result.
 */
export function lockBuildStatement(name: string, build: number): string {
  return `SELECT ${columns} FROM projection_checkpoints
    WHERE name = ${pg.escapeLiteral(name)} AND build = ${Math.trunc(build)} FOR UPDATE`;
}

export function lockedBuild(result: { rows: unknown[] }): BuildRow | null {
  const row = result.rows[0] as Row | undefined;
  return row ? toBuild(row) : null;
}

/**
 * What a page's commit tells readers, once committed (see LogWakeup): the projector's name, the
 * build and its status, and the new position, so a reader waiting for a live build learns where
 * it is without a query. The build tells a move of the live build from word of a build that has
 * given way to another meanwhile (a switch, a follower sent back): notices leave after their
 * commits, so such word may come after the change.
 */
export interface CheckpointNotice {
  name: string;
  build: number;
  status: BuildStatus;
  position: GlobalPosition;
}

export function checkpointNotice({ name, build, status, position }: CheckpointNotice): string {
  return `${name} ${build} ${status} ${position}`;
}

/** The notice of a checkpoint's move; null for any other notification on the channel. */
export function readCheckpointNotice(payload: string | null): CheckpointNotice | null {
  const [name, build, status, position, ...rest] = payload?.split(' ') ?? [];
  if (!name || !build || !position || rest.length > 0 || !isGlobalPosition(position)) return null;
  if (!/^[1-9][0-9]{0,8}$/.test(build)) return null;
  if (status !== 'live' && status !== 'building' && status !== 'retired') return null;
  return { name, build: Number(build), status, position };
}

/**
 * The SET list of a checkpoint moved past applied events, given each value's SQL: the position
 * (and its two parts), and how many events the move applied. A move clears the build's error.
 */
const movedTo = (position: string, major: string, minor: string, applied: string) =>
  `position = ${position}, position_major = ${major}, position_minor = ${minor},
   events = events + ${applied},
   error = NULL, error_position = NULL, error_event_id = NULL, updated_at = now()`;

/**
 * `saveCheckpoint` as a statement with its values written in, for a follower to send with its
 * COMMIT in one round trip.
 */
export function saveCheckpointStatement(
  name: string,
  build: number,
  position: GlobalPosition,
  applied: number,
): string {
  const [major, minor] = parsePosition(position);
  return `UPDATE projection_checkpoints
       SET ${movedTo(pg.escapeLiteral(position), `${major}`, `${minor}`, `${Math.trunc(applied)}`)}
     WHERE name = ${pg.escapeLiteral(name)} AND build = ${Math.trunc(build)}`;
}

/** The SQLSTATE `pageMoveStatement` raises when the build is not where its follower left it. */
export const PAGE_MOVE_REFUSED = 'WP001';

/**
 * A live page's first statement, for a follower that sends its whole page in one round trip: moves
 * the build's checkpoint from `from` to `to`, taking the row's lock for the rest of the
 * transaction, and raises PAGE_MOVE_REFUSED when the build is retired, gone or no longer at
 * `from` (migration 720), so nothing the page writes behind it commits. `movedStatus` reads the
 * build's status from its result.
 */
export function pageMoveStatement(move: CheckpointPass & { applied: number }): string {
  const [major, minor] = parsePosition(move.to);
  const from = move.from === null ? 'NULL' : pg.escapeLiteral(move.from);
  return `SELECT projection_page_move(${pg.escapeLiteral(move.name)}, ${Math.trunc(move.build)},
    ${from}, ${pg.escapeLiteral(move.to)}, ${major}, ${minor}, ${Math.trunc(move.applied)}) AS moved_status`;
}

export function movedStatus(results: { rows: unknown[] }[]): BuildStatus | null {
  for (const result of results) {
    const row = result.rows[0] as { moved_status?: BuildStatus } | undefined;
    if (row?.moved_status) return row.moved_status;
  }
  return null;
}

export const isPageMoveRefused = (error: unknown): boolean =>
  error instanceof Error && (error as { code?: unknown }).code === PAGE_MOVE_REFUSED;

/**
 * Moves one build's checkpoint from `from` to `to` past a live page whose projector wrote nothing,
 * in one statement and no transaction of its own: the row's own lock orders it with an operator's
 * change, as a page's lock would. Returns the build's status once moved; null when nothing moved
 * (the build retired or gone, or its checkpoint no longer at `from`).
 */
export async function moveCheckpoint(
  db: Pool | ClientBase,
  move: CheckpointPass & { applied: number },
): Promise<BuildStatus | null> {
  const [major, minor] = parsePosition(move.to);
  const result = await db.query<{ status: BuildStatus }>({
    name: 'checkpoint_move',
    text: `UPDATE projection_checkpoints SET ${movedTo('$4', '$5', '$6', '$7')}
      WHERE name = $1 AND build = $2 AND position IS NOT DISTINCT FROM $3 AND status <> 'retired'
      RETURNING status`,
    values: [
      move.name,
      move.build,
      move.from,
      move.to,
      major.toString(),
      minor.toString(),
      Math.trunc(move.applied),
    ],
  });
  return result.rows[0]?.status ?? null;
}

/** A build's checkpoint to move from `from` to `to` outside a page's transaction. */
export interface CheckpointPass {
  name: string;
  build: number;
  from: GlobalPosition | null;
  to: GlobalPosition;
  /** Events acted on between `from` and `to` (pages that wrote nothing); 0 for pages passed over. */
  applied?: number;
}

/**
 * Moves builds' checkpoints past pages that wrote nothing (events their projectors do not act
 * on, or act on outside the database), in one statement for all of them, as a page's commit moves
 * it (its count of events applied, and any failure recorded before, cleared). Returns each moved
 * build's status by `name build`; a build retired or gone, or whose checkpoint is no longer at
 * `from`, moves nothing and is absent.
 */
export async function passCheckpoints(
  db: Pool | ClientBase,
  passes: readonly CheckpointPass[],
): Promise<Map<string, BuildStatus>> {
  if (passes.length === 0) return new Map();
  // In key order, so two statements that touch the same rows lock them in the same order.
  const sorted = [...passes].sort((a, b) =>
    a.name === b.name ? a.build - b.build : a.name < b.name ? -1 : 1,
  );
  const positions = sorted.map((pass) => parsePosition(pass.to));
  const result = await db.query<{ name: string; build: number; status: BuildStatus }>({
    name: 'checkpoints_pass',
    text: `UPDATE projection_checkpoints c
        SET ${movedTo('v.to_position', 'v.major', 'v.minor', 'v.applied')}
       FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::numeric[], $6::numeric[],
                   $7::bigint[])
         AS v(name, build, from_position, to_position, major, minor, applied)
      WHERE c.name = v.name AND c.build = v.build
        AND c.position IS NOT DISTINCT FROM v.from_position AND c.status <> 'retired'
      RETURNING c.name, c.build, c.status`,
    values: [
      sorted.map((pass) => pass.name),
      sorted.map((pass) => pass.build),
      sorted.map((pass) => pass.from),
      sorted.map((pass) => pass.to),
      positions.map(([major]) => major.toString()),
      positions.map(([, minor]) => minor.toString()),
      sorted.map((pass) => Math.trunc(pass.applied ?? 0)),
    ],
  });
  return new Map(result.rows.map((row) => [`${row.name} ${row.build}`, row.status]));
}

/** Moves a build's checkpoint past a page of `applied` events (and clears an old failure). */
export async function saveCheckpoint(
  client: ClientBase,
  name: string,
  build: number,
  position: GlobalPosition,
  applied: number,
): Promise<void> {
  const [major, minor] = parsePosition(position);
  await client.query(
    `UPDATE projection_checkpoints
       SET position = $3, position_major = $4, position_minor = $5, events = events + $6,
           error = NULL, error_position = NULL, error_event_id = NULL, updated_at = now()
     WHERE name = $1 AND build = $2`,
    [name, build, position, major.toString(), minor.toString(), applied],
  );
}

/** Records the event a build stopped at, and why. */
export async function saveFailure(
  db: Pool | ClientBase,
  name: string,
  build: number,
  failure: { position: GlobalPosition; eventId: string; error: string },
): Promise<void> {
  await db.query(
    `UPDATE projection_checkpoints
       SET error = $3, error_position = $4, error_event_id = $5, updated_at = now()
     WHERE name = $1 AND build = $2`,
    [name, build, failure.error, failure.position, failure.eventId],
  );
}

/** Ids of the events an operator told this projector version to pass over. */
export async function readSkips(
  db: Pool | ClientBase,
  name: string,
  version: number,
): Promise<Set<string>> {
  const result = await db.query<{ event_id: string }>(
    'SELECT event_id FROM projection_skips WHERE name = $1 AND version = $2',
    [name, version],
  );
  return new Set(result.rows.map((row) => row.event_id));
}
