import type { ClientBase } from 'pg';
import type { RecordedEvent } from '../event-store/port.ts';

/** The tables of one build, created in the build's own schema (it is first on the search path). */
export interface ProjectorSchema {
  /** CREATE TABLE statements, with the keys `apply` needs for its upserts. */
  tables: string;
  /** Secondary indexes and constraints, added once a build has bulk loaded the log so far. */
  indexes: string;
}

/**
 * How a page is applied. `bulk`: a new build loads the log without its secondary `indexes`; a
 * page's rows are new to the build and every earlier page is committed, so a projector may insert
 * without conflict clauses on keys the tables do not have yet. Otherwise the page is live, and
 * `atCommit` takes a statement (SQL text, no parameters) to run in the page's last round trip,
 * before the checkpoint moves and the transaction commits: a projector that writes its page this
 * way saves the round trips of its own writes, and a live page may be one applied before.
 */
export type ApplyContext =
  { bulk: true; atCommit?: undefined } | { bulk: false; atCommit: (sql: string) => void };

/**
 * Turns events into read-model rows. A projector owns its tables (`schema`); each build of it
 * fills its own copy, and `tables` names what the queries read (views over the live build).
 * `applyPage` runs inside the page's transaction with the build's schema first on the search
 * path, and must ignore event types it does not know. Throwing stops this projector alone.
 */
/** What a page of a bulk load writes, in the page's transaction (earlier pages are committed). */
export type PageWrite = (client: ClientBase) => Promise<void>;

/**
 * A bulk load that folds pages ahead of their writes: `fold` turns a page into its write without
 * any I/O (it may pause to let other work run), while the page before it may still be being written, and keeps in memory whatever a
 * later page needs of the rows it wrote. The writes run in the order the pages were folded, each
 * once the one before has committed. After a failed write the loader is dropped, and a new one
 * starts from what is committed.
 */
export interface BulkLoader {
  fold(events: RecordedEvent[]): Promise<PageWrite>;
}

export interface Projector {
  name: string;
  /** Raising the version builds the new version next to the live one, then switches reads to it. */
  version: number;
  tables: string[];
  /**
   * The event types `applyPage`/`apply` act on, when the projector knows them: a live page with
   * none of them only moves the checkpoint, and lazily (see build-follower.ts). Absent: every type.
   */
  eventTypes?: ReadonlySet<string>;
  /** Absent for a follower of the log with no tables of its own (one build, never rebuilt). */
  schema?: ProjectorSchema;
  /**
   * A follower without tables whose first start begins at the log's head, not its start: what was
   * written before it existed is not its business (a notifier does not tell people of old news).
   */
  firstStartAtHead?: boolean;
  /** One page of events in log order, in a handful of statements. */
  applyPage?(client: ClientBase, events: RecordedEvent[], context: ApplyContext): Promise<void>;
  /**
   * A new loader for a bulk load of the log (the build's tables have no secondary indexes yet);
   * without it a bulk load applies pages with `applyPage` in bulk mode, one after another.
   */
  bulkLoader?: () => BulkLoader;
  /** One event; used when there is no `applyPage`. */
  apply?(client: ClientBase, event: RecordedEvent): Promise<void>;
  /**
   * The version before this one, its code kept beside it for as long as a deploy of this version
   * may find that version's build live: processes on this code keep that build current (and
   * finish one of its builds under way) until this version's build takes over reads, so a
   * deploy that restarts every process at once leaves nobody reading a read model that stopped.
   * Its `name` and `tables` are this projector's; its `version` is lower.
   */
  previous?: Projector;
}

/**
 * The code in `projector` that fills builds of `version`: the projector itself, or the earlier
 * version it keeps. Null for a version the code no longer has (or does not have yet).
 */
export function codeForVersion(projector: Projector, version: number): Projector | null {
  for (let code: Projector | undefined = projector; code; code = code.previous) {
    if (code.version === version) return code;
  }
  return null;
}

export const PROJECTIONS_CHANNEL = 'wagers_projections';
/** Notified when a build is created, switched, retired or told to skip an event. */
export const BUILDS_CHANNEL = 'wagers_projection_builds';

export async function applyEvents(
  projector: Projector,
  client: ClientBase,
  events: RecordedEvent[],
  context: ApplyContext,
): Promise<void> {
  if (projector.applyPage) return projector.applyPage(client, events, context);
  for (const event of events) await projector.apply?.(client, event);
}
