import type { ProjectionWatcher } from './watcher.ts';

/** What a read answered, and the state of the read models it was read from. */
export interface StatedRead<T> {
  value: T;
  /**
   * The named projectors' live checkpoints as the read's own statement saw them, in the snapshot
   * of its rows: `liveStateSql` of the same names. Null when it could not say (nothing cached).
   */
  state: string | null;
}

interface Entry<T> {
  /** The resets heard when the read began, then `StatedRead.state`: `knownState`'s text. */
  state: string;
  value: T;
  size: number;
  /** performance.now() when the read began. */
  readAt: number;
}

/**
 * The SQL of a scalar subquery that names the live builds' checkpoints of `names` as
 * `ProjectionWatcher.knownState` writes them, without its first word: put in a read's own
 * statement, it says which state of the read models the read's rows come from. A name whose
 * build has no position is left out, and such a state is never matched.
 */
export function liveStateSql(names: readonly string[]): string {
  const order = [...names].sort();
  const list = order.map((name) => `'${name.replaceAll("'", "''")}'`).join(', ');
  return `(SELECT string_agg(name || ' ' || build || ' ' || position, ' ' ORDER BY name COLLATE "C")
     FROM projection_checkpoints WHERE status = 'live' AND name IN (${list}))`;
}

/**
 * Answers kept per process for reads that depend only on the rows of some read models (and on
 * who asks): an answer is served again, for at most a second, while this process knows those
 * read models to be exactly where the read's own statement found them. It is then what the
 * statement would answer at the latest state of theirs this process has heard of, as a read made
 * just before a commit not heard yet would answer. Any checkpoint move of those projectors, a
 * switch, a new build or a rewind heard makes every kept answer of theirs unused, and an answer
 * read from a state not heard yet is served again only once it is heard. Reads go through
 * read-your-writes first, as without it, so a session's own writes are always in (decision 29).
 */
export class ReadCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private size = 0;

  private readonly names: readonly string[];

  /**
   * @param names the projectors the reads depend on (order free)
   * @param limits `maxAgeMs`: the longest an answer is kept (0 keeps none), so a checkpoint's
   *   notice that never reaches this process (a connection silently gone) cannot keep an answer
   *   in use longer; `maxSize`: the most kept at once, as `sizeOf` weighs answers, the oldest
   *   going first
   */
  constructor(
    private readonly watcher: ProjectionWatcher,
    names: readonly string[],
    private readonly limits: { maxAgeMs: number; maxSize: number; sizeOf: (value: T) => number },
  ) {
    this.names = [...names].sort();
  }

  /**
   * The answer for `key` (who asks and what): kept if the read models are where its read found
   * them, otherwise `read` again. `read` answers null for nothing to keep (not found).
   */
  async get(key: string, read: () => Promise<StatedRead<T> | null>): Promise<T | null> {
    const known = this.watcher.knownState(this.names);
    const kept = this.entries.get(key);
    const now = performance.now();
    if (known !== null && kept?.state === known && now - kept.readAt < this.limits.maxAgeMs) {
      return kept.value;
    }
    const resets = this.watcher.resetCount;
    const fresh = await read();
    if (!fresh) return null;
    if (fresh.state !== null && this.limits.maxAgeMs > 0)
      this.keep(key, `${resets} ${fresh.state}`, fresh.value, now);
    return fresh.value;
  }

  private keep(key: string, state: string, value: T, readAt: number): void {
    this.drop(key);
    const size = this.limits.sizeOf(value);
    if (size > this.limits.maxSize) return;
    while (this.size + size > this.limits.maxSize) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.drop(oldest);
    }
    this.entries.set(key, { state, value, size, readAt });
    this.size += size;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.size -= entry.size;
  }
}
