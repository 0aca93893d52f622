import type { Pool } from 'pg';
import type { GlobalPosition } from '@wagers/contracts/position';
import { passCheckpoints, type BuildStatus, type CheckpointPass } from './checkpoints.ts';

/** How long a checkpoint may lag behind live pages passed over before it is stored, in ms. */
export const DEFAULT_PASS_OVER_MS = 20;

/** How a pass went: the build's status once moved; null when it was not (see passCheckpoints). */
export type PassOutcome = { status: BuildStatus | null } | { error: unknown };

interface Entry {
  pass: CheckpointPass;
  done: (outcome: PassOutcome) => void;
}

const keyOf = (name: string, build: number) => `${name} ${build}`;

/**
 * Stores the checkpoints that followers of one process move past live pages that wrote nothing
 * (pages with none of their projector's event types, or whose events it acted on outside the
 * database: a queue, other streams), all of them in one statement at most every interval: with a
 * dozen such followers and a steady flow of events, each storing its own would cost the database a
 * statement per follower per interval. A follower offers its move, and withdraws it before it
 * commits a page of its own, whose checkpoint covers the move (and counts its events).
 */
export class CheckpointPasser {
  private readonly queued = new Map<string, Entry>();
  /** The statement under way, if any, and the moves it carries. */
  private flight: { entries: Map<string, Entry>; done: Promise<void> } | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly intervalMs: number = DEFAULT_PASS_OVER_MS,
  ) {}

  /**
   * Moves a build's checkpoint to `to` within the interval, counting `applied` events acted on;
   * `done` hears how it went. `from` is where the follower last stored it. A move of the build
   * under way goes first, and this one starts where it ends; one offered that has not gone out yet
   * is replaced by this one, which carries its count (its `done` is not called).
   */
  offer(
    name: string,
    build: number,
    from: GlobalPosition | null,
    to: GlobalPosition,
    done: Entry['done'],
    applied = 0,
  ): void {
    const key = keyOf(name, build);
    const queued = this.queued.get(key)?.pass;
    const start = queued?.from ?? this.flight?.entries.get(key)?.pass.to ?? from;
    const count = (queued?.applied ?? 0) + applied;
    this.queued.set(key, { pass: { name, build, from: start, to, applied: count }, done });
    this.timer ??= setTimeout(() => void this.flush(), this.intervalMs);
  }

  /**
   * Takes back a build's move that has not gone out yet, and waits for one under way: afterwards
   * the stored checkpoint is where the follower's `done` callbacks say. Returns the count of
   * events acted on that the move taken back carried, for the follower's next move to count.
   */
  async withdraw(name: string, build: number): Promise<number> {
    const key = keyOf(name, build);
    const applied = this.queued.get(key)?.pass.applied ?? 0;
    this.queued.delete(key);
    const flight = this.flight;
    if (flight?.entries.has(key)) await flight.done;
    return applied;
  }

  /**
   * Stores a build's move that has not gone out yet now, with the others queued, and waits for
   * it and for one under way: a follower that stops cleanly leaves its checkpoint where it got to,
   * rather than acting on those events again when it starts.
   */
  async settle(name: string, build: number): Promise<void> {
    const key = keyOf(name, build);
    if (this.queued.has(key)) {
      if (this.timer) clearTimeout(this.timer);
      await this.flush();
    }
    const flight = this.flight;
    if (flight?.entries.has(key)) await flight.done;
  }

  private async flush(): Promise<void> {
    this.timer = null;
    // One statement at a time: a later move of a build starts where the one under way ends.
    while (this.flight) await this.flight.done;
    if (this.queued.size === 0) return;
    const entries = new Map(this.queued);
    this.queued.clear();
    const done = (async () => {
      let outcome: (key: string) => PassOutcome;
      try {
        const moved = await passCheckpoints(
          this.pool,
          [...entries.values()].map((entry) => entry.pass),
        );
        outcome = (key) => ({ status: moved.get(key) ?? null });
      } catch (error) {
        outcome = () => ({ error });
      }
      for (const [key, entry] of entries) entry.done(outcome(key));
    })();
    this.flight = { entries, done };
    try {
      await done;
    } finally {
      this.flight = null;
    }
    if (this.queued.size > 0) this.timer ??= setTimeout(() => void this.flush(), this.intervalMs);
  }
}

const shared = new WeakMap<Pool, CheckpointPasser>();

/** The passer of every follower that uses `pool`. */
export function sharedPasser(pool: Pool): CheckpointPasser {
  let passer = shared.get(pool);
  if (!passer) {
    passer = new CheckpointPasser(pool);
    shared.set(pool, passer);
  }
  return passer;
}
