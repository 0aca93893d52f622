import pg, { type Pool } from 'pg';
import { comparePositions, type GlobalPosition } from '@wagers/contracts/position';
import { lowerConnectionPriority } from '@wagers/platform/backend-priority';
import { inTransaction } from '@wagers/platform/db';
import { isDatabaseUnavailable } from '@wagers/platform/db-errors';
import type { EventStore } from '@wagers/platform/event-store/port';
import type { Logger } from '@wagers/platform/logger';
import {
  BuildRefused,
  createBuild,
  dropBuild,
  expiredBuilds,
  switchBuild,
} from '@wagers/platform/projections/builds';
import { readBuilds, type BuildRow } from '@wagers/platform/projections/checkpoints';
import { projectorLag, type ProjectorLag } from '@wagers/platform/projections/lag';
import {
  BUILDS_CHANNEL,
  codeForVersion,
  type Projector,
} from '@wagers/platform/projections/projector';
import {
  DEFAULT_RETIRED_GRACE_MS,
  operatorRebuildLock,
  runProjector,
} from '@wagers/platform/projections/runner';
import { recordOperatorEvent } from './record.ts';

export { BuildRefused };

export interface ProjectionStatus {
  head: GlobalPosition | null;
  builds: ProjectorLag[];
  /** Projectors this service knows that have never run. */
  neverRun: string[];
}

/** Every build of every follower of the log, its state and checkpoint, and how far it trails. */
export async function projectionStatus(
  pool: Pool,
  store: EventStore,
  projectors: Projector[],
): Promise<ProjectionStatus> {
  const [builds, head] = await Promise.all([projectorLag(pool, store), store.headPosition()]);
  const seen = new Set(builds.map((build) => build.name));
  return { head, builds, neverRun: projectors.map((p) => p.name).filter((n) => !seen.has(n)) };
}

/** Whether some process holds a build's lock, i.e. fills it now. */
async function isHeld(pool: Pool, name: string, build: number): Promise<boolean> {
  const key = `projector:${name}:${build}`;
  const client = await pool.connect();
  try {
    const result = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock(hashtext($1)) AS locked',
      [key],
    );
    if (!result.rows[0]?.locked) return true;
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
    return false;
  } finally {
    client.release();
  }
}

export interface RebuildProgress {
  name: string;
  build: number;
  applied: number;
  total: number;
  /**
   * `total` is a lower bound: the log (EventStoreDB) counted the events still to apply up to a
   * cap, and there are more. It is counted again as the build goes.
   */
  totalAtLeast: boolean;
  /** Events per second over the last few seconds. */
  rate: number;
  /** Seconds left at that rate; null before a rate is known. */
  secondsLeft: number | null;
  /** Reads use the build now (or, switching by hand, it has caught up). */
  done: boolean;
  /** Who fills the build: a running service (or another rebuild), or this process. */
  runner: 'another process' | 'this process';
}

export interface RebuildDeps {
  pool: Pool;
  store: EventStore;
  connectionString: string;
  logger: Logger;
  onProgress?: (progress: RebuildProgress) => void;
  /** Resolves to stop following (Ctrl-C): the build stays at its checkpoint for a later resume. */
  interrupted?: Promise<void>;
  pollMs?: number;
  pageSize?: number;
  /** Leave reads on the live build until an operator switches. */
  manualSwitch?: boolean;
  /** Where a log without a count (EventStoreDB) stops counting the lag; `LAG_COUNT_CAP` if absent. */
  lagCountCap?: number;
  /** The nice value the build's own connection runs at (decision 36); as usual if absent. */
  backendNice?: number;
}

export type RebuildOutcome = 'switched' | 'caught up' | 'interrupted';

/**
 * Starts a new build of the projector next to the live one, or resumes one that was interrupted,
 * and follows it until reads have switched to it. A build another process is filling now is
 * refused. Running services leave the build to this process; if it ends before reads switch, a
 * service takes the build over, and either way the build resumes from its checkpoint.
 */
export async function rebuildProjector(
  projector: Projector,
  deps: RebuildDeps,
): Promise<{ build: number; resumed: boolean; outcome: RebuildOutcome }> {
  // Taken before any build is made or resumed, so no service starts filling it at full priority
  // first: services stand by while this process runs, and take the build over once it is gone.
  const hold = await holdRebuild(deps, projector.name);
  if (!hold) {
    const builds = await readBuilds(deps.pool, projector.name);
    throw alreadyRebuilding(
      projector.name,
      builds.find((row) => row.status === 'building'),
    );
  }
  try {
    return await rebuildHeld(projector, deps);
  } finally {
    await hold.end().catch(() => undefined);
  }
}

function alreadyRebuilding(name: string, building: BuildRow | undefined): BuildRefused {
  const counted = building ? ` (build ${building.build}, ${building.events} events so far)` : '';
  return new BuildRefused(
    `${name} is already being rebuilt${counted} by another process; watch it with \`status\`, ` +
      'or retire that build to start again',
  );
}

/**
 * A connection holding the operator's rebuild lock of `name` (session-level: it goes with the
 * process), or null while another operator's rebuild holds it.
 */
async function holdRebuild(deps: RebuildDeps, name: string): Promise<pg.Client | null> {
  const client = new pg.Client({ connectionString: deps.connectionString });
  client.on('error', (error) =>
    deps.logger.warn(
      { err: error },
      'lost the connection holding the rebuild; services may take it over',
    ),
  );
  await client.connect();
  try {
    const result = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock(hashtext($1)) AS locked',
      [operatorRebuildLock(name)],
    );
    if (result.rows[0]?.locked) {
      // Idle, but a backend of the rebuild all the same: below the services like the others.
      if (deps.backendNice) await lowerConnectionPriority(client, deps.backendNice);
      return client;
    }
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  await client.end();
  return null;
}

async function rebuildHeld(
  projector: Projector,
  deps: RebuildDeps,
): Promise<{ build: number; resumed: boolean; outcome: RebuildOutcome }> {
  const builds = await readBuilds(deps.pool, projector.name);
  const existing = builds.find((row) => row.status === 'building');
  const live = builds.find((row) => row.status === 'live');
  if (live && live.version > projector.version) {
    throw new BuildRefused(
      `${projector.name} reads use build ${live.build} of version ${live.version}, newer than this ` +
        `code's version ${projector.version}: rebuild it with the code of version ${live.version}`,
    );
  }
  if (existing && (await isHeld(deps.pool, projector.name, existing.build))) {
    // Held by a service waiting at an event it cannot apply: no rebuild gets past it, a skip does.
    if (existing.error) {
      throw new BuildRefused(
        `${projector.name} build ${existing.build} stopped at event ${existing.errorPosition ?? '?'}: ${existing.error}\n` +
          `Fix the projector and restart it, or pass over the event: skip ${projector.name} ${existing.errorPosition ?? 'POSITION'}`,
      );
    }
    throw alreadyRebuilding(projector.name, existing);
  }
  if (existing) refuseWithoutCode(projector, existing, 'resume');
  let row: BuildRow;
  if (existing) {
    row = existing;
    // A build begun to switch by itself and resumed with --manual-switch leaves the switch to the
    // operator, as asked now: otherwise reads would move the moment it caught up.
    if (deps.manualSwitch && existing.autoSwitch) {
      await deps.pool.query(
        'UPDATE projection_checkpoints SET auto_switch = false WHERE name = $1 AND build = $2',
        [projector.name, existing.build],
      );
      row = { ...existing, autoSwitch: false };
    }
  } else {
    row = await inTransaction(deps.pool, (client) =>
      createBuild(client, projector, { autoSwitch: !deps.manualSwitch }),
    );
    await recordOperatorEvent(deps.store, {
      type: 'ProjectionRebuildRequested',
      data: { projector: projector.name, version: projector.version },
    });
  }
  const runner = runProjector(projector, { ...deps, onlyBuild: row.build });
  try {
    // The first figure shown says who fills the build: give this copy a moment to take its lock.
    await pollPause(2000, runner.active);
    const outcome = await watchBuild(projector, row, runner.holding, deps);
    return { build: row.build, resumed: existing !== undefined, outcome };
  } finally {
    await runner.stop();
  }
}

/**
 * The wait between two looks at a build: `ms`, or less once `interrupted` resolves. Without an
 * interrupt the wait is the whole time (a race with undefined would end it at once, and the watch
 * would read the builds without pause while the build runs).
 */
export function pollPause(ms: number, interrupted?: Promise<void>): Promise<void> {
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, ms));
  return interrupted ? Promise.race([timeout, interrupted]) : timeout;
}

async function watchBuild(
  projector: Projector,
  start: BuildRow,
  holding: ReadonlySet<number>,
  deps: RebuildDeps,
): Promise<RebuildOutcome> {
  const lagOf = async () =>
    (
      await projectorLag(deps.pool, deps.store, {
        only: { name: projector.name, build: start.build },
        ...(deps.lagCountCap === undefined ? {} : { countCap: deps.lagCountCap }),
      })
    )[0];
  const first = await lagOf();
  let total = (first?.events ?? 0) + (first?.lagEvents ?? 0);
  // A log that counts only up to a cap gives a lower bound; it is counted again whenever the build
  // reaches it, and every 5 s besides (a count reads up to the cap's events), until the count comes
  // in under the cap.
  let totalAtLeast = first?.lagEventsAtLeast ?? false;
  let countedAt = Date.now();
  const samples: { at: number; applied: number }[] = [];
  let interrupted = false;
  void deps.interrupted?.then(() => (interrupted = true));
  // An error the build had when the watch began is its last run's (a resumed build stopped at an
  // event, its projector fixed since): its runner has not met the event again yet. Only an error
  // recorded since (saving one moves `updatedAt`) is this run's.
  const staleError = start.error === null ? null : start.updatedAt.getTime();
  /**
   * The build's row, and its lag once it is indexed and building; null while the database is out
   * of reach (a restart, a failover), which the build's runner waits out as well.
   */
  const look = async () => {
    try {
      const row = (await readBuilds(deps.pool, projector.name)).find(
        (r) => r.build === start.build,
      );
      const recount =
        row?.status === 'building' &&
        totalAtLeast &&
        (row.events >= total || Date.now() - countedAt >= 5000);
      const lag = (row?.indexed && row.status === 'building') || recount ? await lagOf() : null;
      if (recount && row && lag) {
        countedAt = Date.now();
        total = row.events + lag.lagEvents;
        totalAtLeast = lag.lagEventsAtLeast;
      }
      return { row, lag: row?.indexed ? (lag?.lagEvents ?? null) : null };
    } catch (error) {
      if (isDatabaseUnavailable(error)) return null;
      throw error;
    }
  };
  for (;;) {
    const seen = await look();
    if (!seen) {
      if (interrupted) return 'interrupted';
      await pollPause(deps.pollMs ?? 250, deps.interrupted);
      continue;
    }
    const { row, lag } = seen;
    if (!row || row.status === 'retired')
      throw new BuildRefused(`${projector.name} build ${start.build} was retired`);
    const caughtUp = row.indexed && row.status === 'building' && lag === 0;
    const done = row.status === 'live' || (caughtUp && !row.autoSwitch);
    total = done ? row.events : Math.max(total, row.events);
    samples.push({ at: Date.now(), applied: row.events });
    while (samples.length > 2 && samples[0]!.at < Date.now() - 5000) samples.shift();
    const oldest = samples[0]!;
    const seconds = (Date.now() - oldest.at) / 1000;
    const rate = seconds > 0 ? (row.events - oldest.applied) / seconds : 0;
    deps.onProgress?.({
      name: projector.name,
      build: row.build,
      applied: row.events,
      total,
      totalAtLeast: totalAtLeast && !done,
      rate,
      secondsLeft: rate > 0 ? Math.max(0, total - row.events) / rate : null,
      done,
      runner: holding.has(row.build) ? 'this process' : 'another process',
    });
    if (row.status === 'live') return 'switched';
    if (done) return 'caught up';
    if (row.error && row.updatedAt.getTime() !== staleError) {
      throw new BuildRefused(
        `${projector.name} build ${row.build} stopped at event ${row.errorPosition ?? '?'}: ${row.error}`,
      );
    }
    if (interrupted) return 'interrupted';
    await pollPause(deps.pollMs ?? 250, deps.interrupted);
  }
}

/**
 * Refuses a build under way of a version this code has no code for: a resume would watch a build
 * that nothing here fills for ever, and a switch would move reads to a version the services do not
 * run. The operator is told what to do instead.
 */
function refuseWithoutCode(
  projector: Projector,
  row: BuildRow,
  what: 'resume' | 'switch to',
): void {
  if (codeForVersion(projector, row.version)) return;
  const advice =
    row.version < projector.version
      ? `retire it (retire ${projector.name} ${row.build}) and rebuild, or start the projection ` +
        `service, which replaces it with a build of version ${projector.version}`
      : `use the command line of version ${row.version}`;
  throw new BuildRefused(
    `${projector.name} build ${row.build} is of version ${row.version}, and this code (version ` +
      `${projector.version}) has no code for it, so it cannot ${what} it: ${advice}`,
  );
}

/** Switches reads to the projector's build under way, once it has caught up with the live one. */
export async function switchProjector(
  pool: Pool,
  store: EventStore,
  projector: Projector,
): Promise<number> {
  const building = (await readBuilds(pool, projector.name)).find((r) => r.status === 'building');
  if (!building) throw new BuildRefused(`${projector.name} has no build under way to switch to`);
  refuseWithoutCode(projector, building, 'switch to');
  // Waiting for its lag to go would be waiting for ever: it catches up only once the event is passed.
  if (building.error) {
    throw new BuildRefused(
      `${projector.name} build ${building.build} stopped at event ${building.errorPosition ?? '?'} and cannot catch up; ` +
        `fix the projector, or pass over the event first: skip ${projector.name} ${building.errorPosition ?? 'POSITION'}`,
    );
  }
  // Not indexed yet: it loads the log, then makes its indexes, and lag 0 does not mean it is ready.
  if (!building.indexed) {
    const [lag] = await projectorLag(pool, store, {
      only: { name: projector.name, build: building.build },
    });
    throw new BuildRefused(
      lag?.lagEvents === 0
        ? `${projector.name} build ${building.build} has loaded the log and is still making its indexes; ` +
            'try again once status no longer shows it as building, indexing'
        : `${projector.name} build ${building.build} is still loading the log (then it makes its indexes); ` +
            'try again once status shows it as building with no lag',
    );
  }
  const switched = await inTransaction(pool, (client) =>
    switchBuild(client, projector, building.build),
  );
  if (!switched) {
    throw new BuildRefused(
      `${projector.name} build ${building.build} has not caught up with the live build yet; try again when status shows no lag`,
    );
  }
  return building.build;
}

/**
 * Drops the retired builds whose grace period is over, as a running projection service does, and
 * returns them: with no service running, nothing else would. A build another process dropped
 * first is not among them.
 */
export async function dropExpiredBuilds(
  pool: Pool,
  graceMs = DEFAULT_RETIRED_GRACE_MS,
): Promise<BuildRow[]> {
  const dropped: BuildRow[] = [];
  for (const row of expiredBuilds(await readBuilds(pool), graceMs)) {
    try {
      await retireBuild(pool, row.name, row.build);
      dropped.push(row);
    } catch (error) {
      // Gone already: a running service dropped it in the meantime.
      if (!(error instanceof BuildRefused)) throw error;
    }
  }
  return dropped;
}

/** Drops a retired build's tables now, or abandons a build under way. */
export async function retireBuild(pool: Pool, name: string, build: number): Promise<void> {
  await inTransaction(pool, (client) => dropBuild(client, name, build));
}

/**
 * Tells the projector to pass over the event it stopped at, and records that in the log first:
 * nothing is ever skipped without a trace.
 */
export async function skipEvent(
  pool: Pool,
  store: EventStore,
  projector: Pick<Projector, 'name'>,
  position: GlobalPosition,
): Promise<BuildRow> {
  // A retired build keeps the error it stopped with, but waits at nothing: never the one meant.
  const stopped = (await readBuilds(pool, projector.name)).find(
    (row) =>
      row.status !== 'retired' &&
      row.errorPosition !== null &&
      comparePositions(row.errorPosition, position) === 0,
  );
  if (!stopped?.errorEventId) {
    throw new BuildRefused(
      `${projector.name} has not stopped at ${position}; status shows where a projector stopped`,
    );
  }
  await recordOperatorEvent(store, {
    type: 'ProjectionEventSkipped',
    data: {
      projector: projector.name,
      version: stopped.version,
      eventId: stopped.errorEventId,
      position,
      error: stopped.error,
    },
  });
  await inTransaction(pool, async (client) => {
    await client.query(
      `INSERT INTO projection_skips (name, version, event_id, position) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING`,
      [projector.name, stopped.version, stopped.errorEventId, position],
    );
    // The builds stopped there are no longer stopped: a rebuild resumed next must not take the
    // failure for a new one before its runner has passed over the event.
    await client.query(
      `UPDATE projection_checkpoints SET error = NULL, error_position = NULL, error_event_id = NULL
       WHERE name = $1 AND version = $2 AND error_event_id = $3`,
      [projector.name, stopped.version, stopped.errorEventId],
    );
    await client.query('SELECT pg_notify($1, $2)', [BUILDS_CHANNEL, projector.name]);
  });
  return stopped;
}
