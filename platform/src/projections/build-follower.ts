import pg from 'pg';
import type { GlobalPosition } from '@wagers/contracts/position';
import { isDatabaseTrouble } from '../db-errors.ts';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/port.ts';
import type { Logger } from '../logger.ts';
import { BuildRefused, finishBulkLoad, switchBuild, ViewsBusy } from './builds.ts';
import type { LogWakeup } from '../event-store/wakeup.ts';
import {
  checkpointNotice,
  isPageMoveRefused,
  lockBuild,
  moveCheckpoint,
  movedStatus,
  lockBuildStatement,
  lockedBuild,
  pageMoveStatement,
  readSkips,
  saveCheckpointStatement,
  saveFailure,
  type BuildRow,
  type BuildStatus,
} from './checkpoints.ts';
import type { CheckpointPasser, PassOutcome } from './checkpoint-passer.ts';
import { livePageEvents, livePageSeconds } from './page-metrics.ts';
import { pageIntervalFor } from './page-interval.ts';
import { applyEvents, type BulkLoader, type PageWrite, type Projector } from './projector.ts';

/** The build was retired or dropped under us: nobody reads it any more. */
export class BuildGone extends Error {}
/** An event made the projector throw; the build waits at it. */
export class PoisonEvent extends Error {}
/** The checkpoint is not where this follower left it: follow from where it is. */
export class CheckpointMoved extends Error {}

export interface FollowDeps {
  store: EventStore;
  pool: pg.Pool;
  logger: Logger;
  /** Events per page while a build bulk loads the log. */
  pageSize: number;
  /** Events per page when following live. */
  batchSize: number;
  /** Where committed checkpoint moves are announced (PROJECTIONS_CHANNEL). */
  notices: LogWakeup;
  /**
   * Stores the checkpoint past live pages the projector has no event type of (see
   * `Projector.eventTypes`), with the other followers' of the process.
   */
  passer: CheckpointPasser;
  /**
   * The shortest time from the start of one live page to the reading of the next, once caught
   * up: under a steady flow of events a follower then commits a page per interval, not one per
   * read of the log, and the transactions it costs the database stop growing with the flow. By
   * default it follows the flow of events (`pageIntervalFor`).
   */
  pageIntervalMs?: number;
}

/** The pause before a switch that gave way to a long reader of the views is tried again. */
const SWITCH_RETRY_MS = 2000;

export interface BuildFollower {
  /** Resolves when following ends: stopped, the build gone, or a poison event met. */
  done: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Follows the log into one build on `client` (the connection holding the build's lock): a new
 * build first loads the log page by page without its secondary indexes, then every build applies
 * live pages. Each page and its checkpoint commit together. A build that has caught up with the
 * live one takes over reads (unless the operator switches by hand).
 */
export function followBuild(
  projector: Projector,
  start: BuildRow,
  client: pg.Client,
  deps: FollowDeps,
): BuildFollower {
  const log = deps.logger.child({ projector: projector.name, build: start.build });
  let stopped = false;
  /** Set once the connection has failed or ended: nothing sent over it after that can succeed. */
  let connectionLost = false;
  const lose = () => {
    connectionLost = true;
  };
  client.once('error', lose);
  client.once('end', lose);
  let subscription: Subscription | null = null;
  /** The checkpoint as stored; `position` runs ahead of it past pages the projector passes over. */
  let saved: GlobalPosition | null = start.position;
  let position: GlobalPosition | null = start.position;
  let building = start.status === 'building';
  /** Events acted on by live pages whose checkpoint moves were offered, then taken back. */
  let carried = 0;
  let skips = new Set<string>();
  let stopRest: () => void = () => undefined;

  async function inTransaction<T>(work: () => Promise<T>): Promise<T> {
    await client.query('BEGIN');
    try {
      const result = await work();
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  async function lockOwn(): Promise<BuildRow> {
    return checkOwn(await lockBuild(client, projector.name, start.build));
  }

  // No commit here waits for its disk flush: the runner opens `client` with synchronous_commit
  // off (read models are derived from the log, and a crash's lost pages are applied again).
  const begin = [
    'BEGIN',
    ...(start.schemaName
      ? [`SET LOCAL search_path TO ${pg.escapeIdentifier(start.schemaName)}, public`]
      : []),
  ].join('; ');

  /** The build's row, locked; throws if the build is gone or its checkpoint moved under us. */
  function checkOwn(row: BuildRow | null): BuildRow {
    if (!row || row.status === 'retired') throw new BuildGone();
    if (row.position !== saved) throw new CheckpointMoved();
    building = row.status === 'building';
    return row;
  }

  const keptOf = (events: RecordedEvent[]) =>
    skips.size > 0 ? events.filter((event) => !skips.has(event.id)) : events;

  /** A checkpoint's move was refused: the build is gone, or its checkpoint moved under us. */
  async function refused(): Promise<never> {
    checkOwn(await lockBuild(client, projector.name, start.build));
    throw new CheckpointMoved();
  }

  /** Opens a page's transaction and locks the build's row, in one round trip. */
  async function openPage(): Promise<void> {
    const opened = (await client.query(
      `${begin}; ${lockBuildStatement(projector.name, start.build)}`,
    )) as unknown as pg.QueryResult[];
    checkOwn(lockedBuild(opened.at(-1)!));
  }

  /**
   * A page in two round trips besides the projector's own statements: open the transaction and
   * lock the build's row, then move the checkpoint (and, live, notify readers) and commit. A bulk
   * load's folded page brings its `write`; otherwise the projector applies the page. A live page
   * opens its transaction with the projector's first statement, so one that sends none costs one
   * round trip: the checkpoint's move, made only if the build is still this follower's and where
   * it left it, alone or, for a projector that left its writes for the commit, first in one
   * transaction with them. With `passIfUnwritten`, a live page that wrote nothing at all (a
   * dispatcher puts jobs on a queue, a process manager appends elsewhere) costs none: nothing is
   * committed, and the count of events it acted on comes back, for the caller to pass over them
   * with the other followers' moves (decision 25). Otherwise null: the page was committed.
   */
  async function commitPage(
    events: RecordedEvent[],
    bulk: boolean,
    write?: PageWrite,
    passIfUnwritten = false,
  ): Promise<number | null> {
    const last = events.at(-1)!.position;
    let opening: Promise<void> | null = null;
    const open = () => {
      if (!opening) {
        opening = openPage();
        opening.catch(() => undefined); // awaited before the commit, or below
      }
      return opening;
    };
    try {
      if (bulk) await open();
      const kept = keptOf(events);
      // Live, the events acted on by earlier pages whose moves were taken back count here.
      const applied = kept.length + (bulk ? 0 : carried);
      const atCommit: string[] = [];
      const context = bulk ? { bulk } : { bulk, atCommit: (sql: string) => atCommit.push(sql) };
      const target = bulk ? client : openingOnFirstQuery(client, () => void open());
      await (write ? write(client) : applyEvents(projector, target, kept, context));
      const move = { name: projector.name, build: start.build, from: saved, to: last };
      if (!opening && atCommit.length === 0 && passIfUnwritten && !building) {
        carried = 0;
        return applied;
      }
      if (!opening && atCommit.length === 0) {
        const status = await moveCheckpoint(client, { ...move, applied });
        if (!status) await refused();
        building = status === 'building';
      } else if (!opening) {
        // Nothing sent yet: the page is one round trip, its checkpoint's move first (decision 27).
        const sql = [begin, pageMoveStatement({ ...move, applied }), ...atCommit];
        let results: pg.QueryResult[];
        try {
          results = (await client.query(
            `${sql.join('; ')}; COMMIT`,
          )) as unknown as pg.QueryResult[];
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          if (isPageMoveRefused(error)) await refused();
          throw error;
        }
        building = movedStatus(results) === 'building';
      } else {
        await open();
        atCommit.push(saveCheckpointStatement(projector.name, start.build, last, applied));
        await client.query(`${atCommit.join('; ')}; COMMIT`);
      }
    } catch (error) {
      if (opening) {
        await client.query('ROLLBACK').catch(() => undefined);
        // The projector's statements went out behind the lock: if the build was not ours, that
        // is what their failure means.
        const own: unknown = await (opening as Promise<void>).then(
          () => null,
          (failure: unknown) => failure,
        );
        if (own instanceof BuildGone || own instanceof CheckpointMoved) throw own;
      }
      throw error;
    }
    position = saved = last;
    if (!bulk) carried = 0;
    if (!bulk) announce(building ? 'building' : 'live', last);
    return null;
  }

  /** Whether a live page can only move the checkpoint: none of its events is of the projector's. */
  function passesOver(events: RecordedEvent[]): boolean {
    const types = projector.eventTypes;
    return !building && types !== undefined && !events.some((event) => types.has(event.type));
  }

  /**
   * Moves the checkpoint past a page passed over, or acted on without a write (`applied` events):
   * in memory now, stored soon with the other followers' moves. `fail` hears of a move that could
   * not be stored.
   */
  function passOver(to: GlobalPosition, fail: (error: unknown) => void, applied = 0): void {
    position = to;
    const stored = (outcome: PassOutcome) => {
      if ('error' in outcome) return fail(outcome.error);
      // Retired, dropped or moved by an operator: the runner looks at the row again.
      if (!outcome.status) return fail(new CheckpointMoved());
      saved = to;
      announce(outcome.status, to);
    };
    deps.passer.offer(projector.name, start.build, saved, to, stored, applied);
  }

  /** Tells readers in every process where a committed checkpoint now is. */
  function announce(status: BuildStatus, at: GlobalPosition): void {
    deps.notices.announce(
      checkpointNotice({ name: projector.name, build: start.build, status, position: at }),
    );
  }

  /** Applies a page; if the projector throws, finds the event that did it one at a time. */
  async function applyPage(
    events: RecordedEvent[],
    bulk: boolean,
    passIfUnwritten = false,
  ): Promise<number | null> {
    try {
      return await commitPage(events, bulk, undefined, passIfUnwritten);
    } catch (error) {
      if (error instanceof BuildGone || error instanceof CheckpointMoved) throw error;
      // A page that failed for the database's sake (its connection lost, the server restarting
      // or out of room, a lost race) is not its events' fault: the runner follows on over a new
      // connection, from the checkpoint the page did not move.
      if (connectionLost || isDatabaseTrouble(error)) throw error;
      if (events.length === 1) {
        const event = events[0]!;
        // Skipped since this follower read the skips (for another build of this version, stopped
        // here first): one skip serves every build of the version, this one passes over it too.
        skips = await readSkips(deps.pool, projector.name, projector.version);
        if (skips.has(event.id)) return commitPage(events, bulk, undefined, passIfUnwritten);
        const message = error instanceof Error ? error.message : String(error);
        await saveFailure(deps.pool, projector.name, start.build, {
          position: event.position,
          eventId: event.id,
          error: message.replace(/\s+/g, ' ').slice(0, 2000),
        });
        // A follower without tables acts on the world (a queue, other aggregates): its failures
        // are mostly the world's (Redis away), so it tries the event again rather than stop. The
        // failure stays recorded until it gets past, so status shows where it waits and why, and
        // an event it can never act on (one it cannot read) can be skipped like any projector's.
        if (!projector.schema) throw error;
        log.error(
          { err: error, position: event.position, eventId: event.id, type: event.type },
          'projector stopped at an event it cannot apply',
        );
        throw new PoisonEvent(message);
      }
    }
    for (const event of events) await applyPage([event], bulk);
    return null;
  }

  /** Set once a switch to this build was refused: it stays as it is for an operator to look at. */
  let switchRefused = false;

  /** Ends the wait before a switch is tried again. */
  let endSwitchWait: () => void = () => undefined;

  /**
   * Switches reads to this build once it has caught up. A switch that gave way to a long reader
   * of the views is tried again after a pause, until it is made, the build falls behind (a later
   * page tries again) or this follower stops.
   */
  async function trySwitch(): Promise<void> {
    while (building && start.autoSwitch && !stopped && !switchRefused) {
      let switched: boolean;
      try {
        switched = await inTransaction(() => switchBuild(client, projector, start.build));
      } catch (error) {
        if (error instanceof ViewsBusy) {
          log.info({ retryInMs: SWITCH_RETRY_MS }, 'a long reader holds the views: switch later');
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, SWITCH_RETRY_MS);
            endSwitchWait = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          continue;
        }
        if (!(error instanceof BuildRefused)) throw error;
        switchRefused = true;
        log.warn({ err: error }, 'reads cannot switch to this build');
        return;
      }
      if (switched) {
        building = false;
        log.info('build caught up: reads switched to it');
      }
      return;
    }
  }

  /**
   * A folded page's write and checkpoint; true once committed. If the write fails, the page is
   * applied by the projector instead (which finds a poison event one at a time) and the answer is
   * false: what the loader folded after this page may rest on rows that were never written.
   */
  async function writeFolded(events: RecordedEvent[], write: PageWrite): Promise<boolean> {
    try {
      await commitPage(events, true, write);
      return true;
    } catch (error) {
      if (error instanceof BuildGone || error instanceof CheckpointMoved) throw error;
      await applyPage(events, true);
      return false;
    }
  }

  /**
   * The bulk load of a projector with a loader: each page is folded while the page before it is
   * written (Node.js works on one, the database on the other), and pages commit in order.
   */
  async function loadFolded(pages: AsyncIterable<RecordedEvent[]>, newLoader: () => BulkLoader) {
    let loader = newLoader();
    // The write of the page before, under way while this one is folded.
    let writing: Promise<boolean> = Promise.resolve(true);
    try {
      for await (const events of pages) {
        if (stopped) break;
        let write: PageWrite | null;
        try {
          write = await loader.fold(keptOf(events));
        } catch {
          write = null;
        }
        if (!(await writing)) write = null;
        if (!write) {
          // A page the loader could not fold, or folded over a page that did not commit as
          // folded: the projector applies it, and a new loader goes on from what is committed.
          await applyPage(events, true);
          loader = newLoader();
          continue;
        }
        writing = writeFolded(events, write);
        writing.catch(() => undefined); // awaited with the next page, or below
      }
      await writing;
    } finally {
      await writing.catch(() => undefined);
    }
  }

  async function bulkLoad(): Promise<void> {
    // The store's bulk read: the next page is read while this one is written.
    const pages = deps.store.readAllPages({ after: position, pageSize: deps.pageSize });
    const newLoader = projector.bulkLoader;
    if (newLoader) await loadFolded(pages, newLoader);
    else {
      for await (const events of pages) {
        if (stopped) break;
        await applyPage(events, true);
      }
    }
    if (stopped) return;
    await inTransaction(async () => {
      const row = await lockOwn();
      await finishBulkLoad(client, projector, row);
    });
    log.info({ position }, 'build loaded the log; indexes made');
  }

  async function followLive(): Promise<void> {
    let failure: unknown = null;
    /** When the last page applied began (null until one has): the flow is gauged from it. */
    let lastStarted: number | null = null;
    let rest: { timer: NodeJS.Timeout; end: () => void } | null = null;
    /** Waits out the rest of the page interval; stopping ends the wait. */
    const restFor = (ms: number) =>
      ms <= 0 || stopped
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const end = () => {
              clearTimeout(timer);
              rest = null;
              resolve();
            };
            const timer = setTimeout(end, ms);
            rest = { timer, end };
          });
    let current: Subscription | null = null;
    const fail = (error: unknown) => {
      failure ??= error;
      void current?.stop();
    };
    current = deps.store.subscribeToAll({
      after: position,
      batchSize: deps.batchSize,
      onEvents: async (events) => {
        if (passesOver(events)) return passOver(events.at(-1)!.position, fail);
        // This page's checkpoint covers every move passed over before it.
        carried += await deps.passer.withdraw(projector.name, start.build);
        const started = performance.now();
        const unwritten = await applyPage(events, false, true);
        if (unwritten !== null) passOver(events.at(-1)!.position, fail, unwritten);
        const labels = { projector: projector.name };
        livePageSeconds.observe(labels, (performance.now() - started) / 1000);
        livePageEvents.observe(labels, events.length);
        if (events.length < deps.batchSize) {
          const interval =
            deps.pageIntervalMs ??
            pageIntervalFor(events.length, lastStarted === null ? Infinity : started - lastStarted);
          lastStarted = started;
          await restFor(interval - (performance.now() - started));
        } else lastStarted = started;
      },
      // Caught up with everything committed, none of it hidden behind an open transaction (a
      // build with nothing new to read, at once): reads may switch to this build.
      onCaughtUp: () => trySwitch(),
      onError: (error) => (failure ??= error),
    });
    subscription = current;
    stopRest = () => rest?.end();
    if (stopped) void current.stop();
    await current.done;
    subscription = null;
    // Stopped cleanly, the moves not stored yet are stored; otherwise the row is looked at again.
    if (stopped && !failure) await deps.passer.settle(projector.name, start.build);
    else await deps.passer.withdraw(projector.name, start.build);
    if (failure) throw failure;
  }

  const done = (async () => {
    skips = await readSkips(deps.pool, projector.name, projector.version);
    if (!start.indexed) await bulkLoad();
    if (!stopped) await followLive();
  })();

  return {
    done,
    async stop() {
      stopped = true;
      stopRest();
      endSwitchWait();
      await subscription?.stop();
      await done.catch(() => undefined);
    },
  };
}

/**
 * `client` for a projector's page: its first statement first sends `open` (the page's
 * transaction and lock), queued on the connection ahead of it. Everything else is the client's.
 */
function openingOnFirstQuery(client: pg.Client, open: () => void): pg.Client {
  const send = client.query.bind(client) as (...args: unknown[]) => unknown;
  const query = (...args: unknown[]): unknown => {
    open();
    return send(...args);
  };
  return new Proxy(client, {
    get(target, property) {
      if (property === 'query') return query;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}
