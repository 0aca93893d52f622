import pg from 'pg';
import type { Pool } from 'pg';
import type { EventStore } from '../event-store/port.ts';
import { releaseWakeup, sharedWakeup } from '../event-store/wakeup.ts';
import { inTransaction } from '../db.ts';
import type { Logger } from '../logger.ts';
import {
  BuildRefused,
  createBuild,
  dropBuild,
  dropTime,
  ensureFollowerBuild,
  expiredBuilds,
  retireBuildUnderWay,
} from './builds.ts';
import {
  BuildGone,
  CheckpointMoved,
  followBuild,
  PoisonEvent,
  type BuildFollower,
} from './build-follower.ts';
import { sharedPasser } from './checkpoint-passer.ts';
import { readBuilds, type BuildRow } from './checkpoints.ts';
import { projectorLag } from './lag.ts';
import { lowerConnectionPriority } from '../backend-priority.ts';
import {
  BUILDS_CHANNEL,
  codeForVersion,
  PROJECTIONS_CHANNEL,
  type Projector,
} from './projector.ts';

export interface ProjectorRunnerDeps {
  store: EventStore;
  pool: Pool;
  /** A connection of its own per build holds the build's advisory lock for as long as it runs. */
  connectionString: string;
  logger: Logger;
  standbyRetryMs?: number;
  /** Events per live page. */
  batchSize?: number;
  /** Events per page while a new build loads the log. */
  pageSize?: number;
  /** Follow this build only and start none (the operator's rebuild command). */
  onlyBuild?: number;
  /** How long a retired build's tables stay (for a look, or a switch back) before they go. */
  retiredGraceMs?: number;
  /** The longest wait before following again after failures in a row (doubling from 500 ms). */
  maxRetryMs?: number;
  /**
   * Lower each build connection's backend to this nice value: an operator's rebuild, whose runner
   * stops once reads switch (decision 36). Never for a service, whose builds go on live.
   */
  backendNice?: number;
  /**
   * A service's new build with at least `minEvents` events still to load from the log is loaded
   * by a process of its own (`start`, the operator's rebuild, below the services: decision 36),
   * while this copy stands by; it goes on from that process's checkpoint if the process ends
   * before the build is live. Absent: every build is loaded here.
   */
  buildApart?: BuildApart;
}

/** How a service has a large build loaded elsewhere (see `ProjectorRunnerDeps.buildApart`). */
export interface BuildApart {
  minEvents: number;
  /** Starts the process that loads projector `name`'s build under way. */
  start(name: string): BuildApartProcess;
}

export interface BuildApartProcess {
  /** Resolves with how the process ended: its exit code, or null after a signal. */
  readonly ended: Promise<number | null>;
  /** Asks it to stop at its checkpoint, and resolves once it has ended. */
  stop(): Promise<void>;
}

export interface RunningProjector {
  readonly name: string;
  /** Resolves once this copy holds the lock of a build (it may wait while another copy runs). */
  readonly active: Promise<void>;
  /** Builds this copy is filling now. */
  readonly holding: ReadonlySet<number>;
  stop(): Promise<void>;
}

export const DEFAULT_RETIRED_GRACE_MS = 15 * 60_000;
const FIRST_RETRY_MS = 500;
const DEFAULT_MAX_RETRY_MS = 10_000;

/**
 * The application name of the connections that fill builds: es_log_horizon() (migration 700)
 * leaves their transactions out, so nothing they run may append to the log.
 */
export const READ_MODEL_CONNECTION = 'wagers-read-models';

/**
 * The advisory lock an operator's rebuild holds, on a connection of its own, for as long as its
 * process runs: a service leaves the projector's build under way to that process, which runs
 * below the services (decision 36), and takes it over only once the process is gone.
 */
export function operatorRebuildLock(name: string): string {
  return `projector-rebuild:${name}`;
}

interface Task {
  stop(): Promise<void>;
}

/**
 * Runs one projector across all its builds: the live one, and a new one whenever the code's
 * version is newer than the live build's or an operator asks for a rebuild. Each build has one
 * active copy across all processes (an advisory lock); other copies wait and take over. Retired
 * builds are dropped after the grace period.
 */
export function runProjector(projector: Projector, deps: ProjectorRunnerDeps): RunningProjector {
  const log = deps.logger.child({ projector: projector.name });
  // One listener for build changes (rebuilds, switches, skips) per process, for every projector.
  const wakeup = sharedWakeup(deps.connectionString, BUILDS_CHANNEL);
  const notices = sharedWakeup(deps.connectionString, PROJECTIONS_CHANNEL);
  const tasks = new Map<number, Task>();
  const holding = new Set<number>();
  const wakers = new Set<() => void>();
  let stopped = false;
  let markActive: () => void = () => undefined;
  const active = new Promise<void>((resolve) => (markActive = resolve));
  let expiryTimer: NodeJS.Timeout | null = null;

  /** Sleeps until `ms` pass, a build changes anywhere, or this copy stops. */
  function pause(ms: number): Promise<void> {
    if (stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      wakers.add(done);
    });
  }

  /** Builds under way whose service copy stands by for an operator's rebuild (logged once). */
  const waitingForOperator = new Set<number>();
  /** Builds this copy has looked at handing to a process of their own (once each). */
  const consideredApart = new Set<number>();
  const apart = new Set<BuildApartProcess>();

  /**
   * Hands a build (its row as `reconcile` has just read it) to a process of its own when it is a
   * new build with a large part of the log still to load (`deps.buildApart`), and waits until that process holds the operator's rebuild
   * lock (so `acquireLock` stands by) or has ended (so this copy loads it after all).
   */
  async function loadApart(row: BuildRow): Promise<void> {
    const { build } = row;
    const apartDeps = deps.buildApart;
    if (!apartDeps || deps.onlyBuild !== undefined || consideredApart.has(build)) return;
    consideredApart.add(build);
    if (row.status !== 'building' || row.indexed) return;
    const [lag] = await projectorLag(deps.pool, deps.store, {
      only: { name: projector.name, build },
      countCap: apartDeps.minEvents,
      rows: [row],
    });
    if (!lag || lag.lagEvents < apartDeps.minEvents || stopped) return;
    log.info(
      { build, events: lag.lagEvents, atLeast: lag.lagEventsAtLeast },
      'loading the build in a process of its own, below the services',
    );
    const child = apartDeps.start(projector.name);
    apart.add(child);
    let ended = false;
    void child.ended.then((code) => {
      ended = true;
      apart.delete(child);
      for (const wake of [...wakers]) wake();
      if (code === 0) log.info({ build }, "the build's own process has ended");
      else if (stopped)
        log.info({ build, code }, "the build's own process stopped at its checkpoint");
      else
        log.warn(
          { build, code },
          "the build's own process ended early; the service goes on with the build",
        );
    });
    while (!stopped && !ended && !(await standingBy(build))) await pause(250);
  }

  /**
   * Whether this copy waits for now rather than try `build`'s lock: an operator's rebuild holds it
   * (it is under way and the operator's lock is taken, tried in the statement's own transaction so
   * a free lock is not kept), or the database could not say. Asked over the pool, so a copy that
   * stands by opens no connection of its own each time it looks.
   */
  async function standingBy(build: number): Promise<boolean> {
    if (deps.onlyBuild !== undefined) return false;
    let held: boolean;
    try {
      const result = await deps.pool.query<{ held: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM projection_checkpoints
                         WHERE name = $1 AND build = $2 AND status = 'building')
                AND NOT pg_try_advisory_xact_lock(hashtext($3)) AS held`,
        [projector.name, build, operatorRebuildLock(projector.name)],
      );
      held = result.rows[0]?.held === true;
    } catch (error) {
      log.warn({ err: error }, 'could not take the projector lock');
      return true;
    }
    if (held && !waitingForOperator.has(build))
      log.info({ build }, "an operator's rebuild is filling this build; standing by");
    if (held) waitingForOperator.add(build);
    else waitingForOperator.delete(build);
    return held;
  }

  async function acquireLock(build: number): Promise<pg.Client | null> {
    while (!stopped) {
      if (await standingBy(build)) {
        await pause(deps.standbyRetryMs ?? 1000);
        continue;
      }
      // Named so the log's horizon leaves its page transactions out: they never append.
      const client = new pg.Client({
        connectionString: deps.connectionString,
        application_name: READ_MODEL_CONNECTION,
        // What a follower commits is derived from the log and found again after a crash (rows and
        // checkpoint together): no commit on this connection waits for the disk flush.
        options: '-c synchronous_commit=off',
      });
      client.on('error', (error) => log.warn({ err: error }, 'projector connection lost'));
      try {
        await client.connect();
        if (deps.backendNice) {
          void lowerConnectionPriority(client, deps.backendNice).then((outcome) => {
            if (!outcome.lowered)
              log.info({ reason: outcome.reason }, 'build runs at the usual CPU priority');
          });
        }
        const result = await client.query<{ locked: boolean }>(
          'SELECT pg_try_advisory_lock(hashtext($1)) AS locked',
          [`projector:${projector.name}:${build}`],
        );
        if (result.rows[0]?.locked) return client;
        await client.end();
      } catch (error) {
        log.warn({ err: error }, 'could not take the projector lock');
        await client.end().catch(() => undefined);
      }
      await pause(deps.standbyRetryMs ?? 1000);
    }
    return null;
  }

  /** Fills `build` with `code`: this projector, or the earlier version it keeps (`previous`). */
  function startTask(start: BuildRow, code: Projector): void {
    const { build } = start;
    let follower: BuildFollower | null = null;
    let ended = false;
    // Failures in a row: a follower that keeps failing (Redis away for the notifier's dispatchers)
    // waits longer each time, up to maxRetryMs, rather than log the same failure twice a second
    // for as long as it lasts. An operator's skip or a build change wakes it at once.
    const maxRetryMs = deps.maxRetryMs ?? DEFAULT_MAX_RETRY_MS;
    let failures = 0;
    const running = (async () => {
      while (!stopped && !ended) {
        await loadApart(start).catch((error: unknown) =>
          log.warn({ err: error, build }, 'could not hand the build to a process of its own'),
        );
        const client = await acquireLock(build);
        if (!client) return;
        const began = Date.now();
        try {
          const row = (await readBuilds(client, projector.name)).find((r) => r.build === build);
          if (!row || row.status === 'retired') return;
          holding.add(build);
          markActive();
          log.info({ build, status: row.status, version: code.version }, 'projector build active');
          follower = followBuild(code, row, client, {
            store: deps.store,
            pool: deps.pool,
            logger: deps.logger,
            pageSize: deps.pageSize ?? 10_000,
            batchSize: deps.batchSize ?? 500,
            notices,
            passer: sharedPasser(deps.pool),
          });
          // Asked to stop while this copy was taking the build: nothing else will stop it.
          if (ended || stopped) void follower.stop();
          await follower.done;
          follower = null;
        } catch (error) {
          follower = null;
          if (error instanceof BuildGone) return;
          // Waits at the event (lock held) until an operator skips it or the process restarts.
          if (error instanceof PoisonEvent) {
            if (!ended) await pause(60 * 60_000);
          } else if (error instanceof CheckpointMoved)
            log.info('checkpoint moved: following from it');
          else {
            // Ran longer than the longest wait before failing: a new failure, not the same again.
            failures = Date.now() - began > maxRetryMs ? 1 : failures + 1;
            const retryInMs = Math.min(FIRST_RETRY_MS * 2 ** (failures - 1), maxRetryMs);
            log.error({ err: error, failures, retryInMs }, 'projector failed; restarting');
            await pause(retryInMs);
          }
        } finally {
          holding.delete(build);
          await client.end().catch(() => undefined);
        }
      }
    })().finally(() => tasks.delete(build));
    tasks.set(build, {
      async stop() {
        ended = true;
        for (const wake of [...wakers]) wake();
        await follower?.stop();
        await running;
      },
    });
  }

  async function dropExpired(rows: Awaited<ReturnType<typeof readBuilds>>): Promise<void> {
    const grace = deps.retiredGraceMs ?? DEFAULT_RETIRED_GRACE_MS;
    for (const row of expiredBuilds(rows, grace)) {
      await inTransaction(deps.pool, (client) => dropBuild(client, row.name, row.build)).then(
        () => log.info({ build: row.build }, 'retired build dropped'),
        (error: unknown) => log.warn({ err: error, build: row.build }, 'could not drop a build'),
      );
    }
    const next = rows
      .map((row) => dropTime(row, grace))
      .filter((at) => at !== null)
      .map((at) => at - Date.now())
      .filter((ms) => ms > 0);
    if (expiryTimer) clearTimeout(expiryTimer);
    expiryTimer =
      next.length > 0 ? setTimeout(() => void refresh(), Math.min(...next) + 100) : null;
  }

  async function reconcile(): Promise<void> {
    if (!projector.schema) {
      // Where a new follower starts: read before its row exists; a row already there is kept.
      const from = projector.firstStartAtHead
        ? (await readBuilds(deps.pool, projector.name)).length === 0
          ? await deps.store.headPosition()
          : null
        : null;
      await inTransaction(deps.pool, (client) => ensureFollowerBuild(client, projector, from));
    } else if (deps.onlyBuild === undefined) {
      const rows = await readBuilds(deps.pool, projector.name);
      const live = rows.find((row) => row.status === 'live');
      const building = rows.find((row) => row.status === 'building');
      // A build of an older version left under way (a rebuild interrupted, or left to switch by
      // hand) that this code cannot fill: nothing would ever finish it, and while it stands no
      // build of this version could start. It retires, and a build of this version takes its place.
      const stranded =
        building &&
        building.version < projector.version &&
        codeForVersion(projector, building.version) === null
          ? building
          : undefined;
      const create = (!building || stranded) && (!live || live.version < projector.version);
      if (stranded || create) {
        if (stranded)
          log.info(
            { build: stranded.build, version: stranded.version },
            'retiring a build this code cannot fill',
          );
        if (create)
          log.info(
            { from: live?.version, to: projector.version },
            'new projector version: building',
          );
        await inTransaction(deps.pool, async (client) => {
          if (stranded) await retireBuildUnderWay(client, projector.name, stranded.build);
          if (create) await createBuild(client, projector);
        }).catch((error: unknown) => {
          if (!(error instanceof BuildRefused)) throw error;
        });
      }
      await dropExpired(rows);
    }
    const rows = await readBuilds(deps.pool, projector.name);
    for (const row of rows) {
      // A build of the version before this one is followed with the code kept for it, if any.
      const code = codeForVersion(projector, row.version);
      const wanted =
        code !== null &&
        row.status !== 'retired' &&
        (deps.onlyBuild === undefined || row.build === deps.onlyBuild);
      if (wanted && !tasks.has(row.build) && !stopped) startTask(row, code);
    }
    for (const [build, task] of tasks) {
      const row = rows.find((r) => r.build === build);
      if (!row || row.status === 'retired') void task.stop();
    }
  }

  let refreshing: Promise<void> | null = null;
  let again = false;
  function refresh(): Promise<void> {
    if (refreshing) {
      again = true;
      return refreshing;
    }
    refreshing = (async () => {
      do {
        again = false;
        if (stopped) return;
        await reconcile().catch((error: unknown) =>
          log.error({ err: error }, 'could not read the projector builds'),
        );
      } while (again);
    })().finally(() => (refreshing = null));
    return refreshing;
  }

  const unlisten = wakeup.onWake(() => {
    for (const wake of [...wakers]) wake();
    void refresh();
  });
  void refresh();

  return {
    name: projector.name,
    active,
    holding,
    async stop() {
      stopped = true;
      unlisten();
      if (expiryTimer) clearTimeout(expiryTimer);
      for (const wake of [...wakers]) wake();
      await refreshing;
      // A build's own process stops at its checkpoint, and this build goes on from it next start.
      await Promise.all([...apart].map((child) => child.stop()));
      await Promise.all([...tasks.values()].map((task) => task.stop()));
      await releaseWakeup(wakeup);
      await releaseWakeup(notices);
    },
  };
}
