import type { Pool } from 'pg';
import { parsePosition, type GlobalPosition } from '@wagers/contracts/position';
import type { EventStore } from '../event-store/port.ts';
import { readBuilds, type BuildRow } from './checkpoints.ts';

export interface ProjectorLag extends BuildRow {
  /** Events in the log after the checkpoint, or at least this many when `lagEventsAtLeast`. */
  lagEvents: number;
  /**
   * The log could not count them all cheaply (EventStoreDB's $all has no count): counting stopped
   * at `LAG_COUNT_CAP` and there are more. Never set for the PostgreSQL log, which counts them.
   */
  lagEventsAtLeast: boolean;
  /** Age of the oldest event not yet applied; 0 when caught up. */
  lagSeconds: number;
}

/**
 * How many events after a checkpoint a log without a count (EventStoreDB) reads to count them;
 * a build further behind shows this many as "at least".
 */
export const LAG_COUNT_CAP = 10_000;

const COUNT_PAGE = 1_000;

export interface LagOptions {
  /** One build only. */
  only?: { name: string; build: number };
  /** Where a log without a count stops counting; `LAG_COUNT_CAP` when absent. */
  countCap?: number;
  /** The builds' rows when the caller has just read them (`/metrics`): not read a second time. */
  rows?: BuildRow[];
}

interface Trail {
  events: number;
  atLeast: boolean;
  /** When the oldest event not applied was recorded; null when there is none. */
  oldestAt: Date | null;
}

/**
 * Events after a checkpoint in a log that cannot count them in one query: read forwards in pages,
 * up to the cap. The first one's time is the age of the lag.
 */
async function trailByReading(
  store: EventStore,
  after: GlobalPosition | null,
  cap: number,
): Promise<Trail> {
  let events = 0;
  let oldestAt: Date | null = null;
  let cursor = after;
  // One past the cap tells "exactly the cap" from "more than it".
  while (events <= cap) {
    const maxCount = Math.min(COUNT_PAGE, cap + 1 - events);
    const page = await store.readAll({ after: cursor, maxCount });
    if (page.length === 0) break;
    oldestAt ??= page[0]!.recordedAt;
    events += page.length;
    cursor = page[page.length - 1]!.position;
    if (page.length < maxCount) break;
  }
  return events > cap
    ? { events: cap, atLeast: true, oldestAt }
    : { events, atLeast: false, oldestAt };
}

/**
 * How far each build of each follower of the log (projectors, the notifier's dispatcher) trails its
 * head. The PostgreSQL log counts with one query on `es_events`; any other (EventStoreDB, where
 * `es_events` stays empty) is read through the store's port, counting up to a cap.
 */
export async function projectorLag(
  pool: Pool,
  store: EventStore,
  { only, countCap = LAG_COUNT_CAP, rows }: LagOptions = {},
): Promise<ProjectorLag[]> {
  const builds = (rows ?? (await readBuilds(pool, only?.name))).filter(
    (row) => !only || row.build === only.build,
  );
  const retired = (build: BuildRow): ProjectorLag => ({
    ...build,
    lagEvents: 0,
    lagEventsAtLeast: false,
    lagSeconds: 0,
  });
  if (store.kind === 'postgres') {
    return Promise.all(
      builds.map(async (build) => {
        // A retired build follows nothing any more: how far behind it is says nothing.
        if (build.status === 'retired') return retired(build);
        const [tx, position] = build.position ? parsePosition(build.position) : [0n, 0n];
        // The age by the database's clock, which recorded the events: this process's clock may
        // differ from it (an operator's laptop, a container whose clock drifted).
        const result = await pool.query<{ events: string; seconds: number | null }>(
          `SELECT count(*) AS events,
                  greatest(0, extract(epoch FROM now() - min(recorded_at)))::float8 AS seconds
             FROM es_events
            WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)`,
          [tx.toString(), position.toString()],
        );
        const row = result.rows[0];
        return {
          ...build,
          lagEvents: Number(row?.events ?? 0),
          lagEventsAtLeast: false,
          lagSeconds: row?.seconds ?? 0,
        };
      }),
    );
  }
  // Another log's events carry its server's clock; the age is taken by PostgreSQL's, a server's
  // clock too, rather than this process's (an operator's laptop may run an hour off).
  const clock = await pool.query<{ now: Date }>('SELECT now() AS now');
  const now = clock.rows[0]!.now.getTime();
  // Builds at the same checkpoint (most live builds, at the head) are counted once.
  const trails = new Map<string, Promise<Trail>>();
  return Promise.all(
    builds.map(async (build) => {
      if (build.status === 'retired') return retired(build);
      const key = build.position ?? '';
      let trail = trails.get(key);
      if (!trail) {
        trail = trailByReading(store, build.position, countCap);
        trails.set(key, trail);
      }
      const { events, atLeast, oldestAt } = await trail;
      return {
        ...build,
        lagEvents: events,
        lagEventsAtLeast: atLeast,
        lagSeconds: oldestAt ? Math.max(0, (now - oldestAt.getTime()) / 1000) : 0,
      };
    }),
  );
}
