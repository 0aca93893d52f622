import type { Pool } from 'pg';
import { comparePositions, maxPosition, type GlobalPosition } from '@wagers/contracts/position';
import { releaseWakeup, sharedWakeup, type LogWakeup } from '../event-store/wakeup.ts';
import {
  readCheckpointNotice,
  readLivePositions,
  type CheckpointNotice,
  type LivePosition,
} from './checkpoints.ts';
import { compareParsed, parsed, PositionQueue, type ParsedPosition } from './position-queue.ts';
import { PROJECTIONS_CHANNEL } from './projector.ts';

interface Waiter {
  names: string[];
  at: ParsedPosition;
  /** Set once resolved (reached, timed out or closed); it may still sit in a queue. */
  done: boolean;
  resolve: (reached: boolean) => void;
}

/** How often positions are read while someone waits, in case a notice was lost. */
const SAFETY_NET_MS = 1000;

/**
 * Read-your-writes: lets a query wait until the projectors it reads have passed a position.
 * Follows each projector's live build (the one reads see), including across a switch. Woken by
 * the notification every checkpoint commit and every switch sends, never by polling: a live
 * build's checkpoint move says where it got to, and anything else (a switch, a rewind, a
 * reconnection) has the positions read again. A build's position only moves on; a projector's
 * live build changes only with a reset (a switch, a follower sent back), and which build is live
 * is taken from a read of the positions begun after it, never from a notice: word of a build that
 * has given way may come after the reset, its notice having left after its commit.
 */
export class ProjectionWatcher {
  private readonly wakeup: LogWakeup;
  /** Each projector's live build as far as this process knows, and where it has got to. */
  private readonly positions = new Map<string, LivePosition>();
  /**
   * For projectors whose live build may have changed since they were last read (a reset not read
   * yet, or never read at all): the furthest position heard of each build meanwhile, for the read
   * that settles which build is live.
   */
  private readonly heard = new Map<string, Map<number, GlobalPosition>>();
  /** When (performance.now()) each checkpoint's current position reached this process. */
  private readonly learnedAt = new Map<string, number>();
  /** Waiters in the queue of the first projector they wait for that has not reached them yet. */
  private readonly queues = new Map<string, PositionQueue<Waiter>>();
  private timedOut = 0;
  private safetyNet: NodeJS.Timeout | null = null;
  /**
   * Projectors whose live position may have gone back (a switch, a rewind) and have not been read
   * since, with how many such notifications came for each.
   */
  private readonly resets = new Map<string, number>();
  private refreshing: Promise<void> | null = null;
  private refreshAgain = false;
  /** Builds created, switched or retired and followers sent back, as heard so far (any name). */
  private resetsHeard = 0;

  constructor(
    private readonly pool: Pool,
    connectionString: string,
  ) {
    // Shared with the process's followers: what they commit reaches this watcher in memory.
    this.wakeup = sharedWakeup(connectionString, PROJECTIONS_CHANNEL);
  }

  async start(): Promise<void> {
    this.wakeup.onWake((payload) => {
      const notice = readCheckpointNotice(payload);
      if (!notice) {
        // A build created, switched or retired, or a follower sent back: payload is its name.
        // Anything else (a reconnection, a notice in a form of another version) only has the
        // positions read again.
        if (payload && !payload.includes(' ')) {
          this.resets.set(payload, (this.resets.get(payload) ?? 0) + 1);
          this.resetsHeard += 1;
        }
        return void this.refresh();
      }
      // A building build's move is not what reads see; a retired one's cannot happen.
      if (notice.status === 'live') this.learn(notice);
    });
    await this.wakeup.ready();
    await this.refresh();
    // Notices leave after their commits: one lost (its process gone in between) must not keep
    // readers waiting while the log is quiet, so waiting readers have the positions read now and
    // then.
    this.safetyNet = setInterval(() => {
      for (const queue of this.queues.values()) if (queue.size > 0) return void this.refresh();
    }, SAFETY_NET_MS);
    this.safetyNet.unref();
  }

  private reached(names: string[], position: GlobalPosition): boolean {
    return names.every((name) => {
      const at = this.positions.get(name)?.position;
      return at != null && comparePositions(at, position) >= 0;
    });
  }

  private refresh(): Promise<void> {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        const resets = new Map(this.resets);
        const live = await readLivePositions(this.pool).catch(() => null);
        if (!live) continue;
        const now = performance.now();
        for (const [name, stored] of live) {
          // A reset came while this read was out: what it read may be from before it, and the
          // next read (already due) settles the name.
          const reset = resets.get(name);
          if (reset === undefined && this.resets.has(name)) continue;
          const known = this.positions.get(name);
          // The build read is live; what was heard of it meanwhile may be further on.
          let position = maxPosition(stored.position, this.heard.get(name)?.get(stored.build));
          if (known?.build === stored.build) position = maxPosition(known.position, position);
          if (reset !== undefined && this.resets.get(name) === reset) this.resets.delete(name);
          if (!this.resets.has(name)) this.heard.delete(name);
          if (known?.build === stored.build && known.position === position) continue;
          this.positions.set(name, { build: stored.build, position });
          this.learnedAt.set(name, now);
          this.wakeWaiters(name);
        }
        // Heard of, but with no live build: nothing to settle.
        for (const name of this.heard.keys())
          if (!live.has(name) && !this.resets.has(name)) this.heard.delete(name);
      } while (this.refreshAgain);
    })().finally(() => {
      this.refreshing = null;
      // Asked for after the loop's last look but before this: read again.
      if (this.refreshAgain) void this.refresh();
    });
    return this.refreshing;
  }

  /** A live build's checkpoint moved, as its commit announced. */
  private learn({ name, build, position }: CheckpointNotice): void {
    const known = this.positions.get(name);
    if (known?.build === build && !this.resets.has(name)) {
      // Announcements arrive in commit order, but a read of the positions may have overtaken it.
      if (known.position != null && comparePositions(known.position, position) >= 0) return;
      this.positions.set(name, { build, position });
      this.learnedAt.set(name, performance.now());
      return this.wakeWaiters(name);
    }
    // Another build than the one known live, and no reset heard since it was read: word of a
    // build that has given way, come late.
    if (known && !this.resets.has(name)) return;
    // Which build is live is not known until a read begun since the reset (or ever) ends: what
    // was heard waits for it.
    let builds = this.heard.get(name);
    if (!builds) this.heard.set(name, (builds = new Map<number, GlobalPosition>()));
    builds.set(build, maxPosition(builds.get(build), position)!);
    if (!known) void this.refresh();
  }

  /** Has `name` reached `at`? */
  private reachedOne(name: string, at: ParsedPosition): boolean {
    const position = this.positions.get(name)?.position;
    return position != null && compareParsed(parsed(position), at) >= 0;
  }

  /** Queues the waiter on the first projector it waits for that is short of it; false if none is. */
  private enqueue(waiter: Waiter): boolean {
    const name = waiter.names.find((n) => !this.reachedOne(n, waiter.at));
    if (name === undefined) return false;
    let queue = this.queues.get(name);
    if (!queue) this.queues.set(name, (queue = new PositionQueue<Waiter>()));
    queue.push(waiter);
    return true;
  }

  /** `name` moved: its waiters now reached wait on their next projector, or are done. */
  private wakeWaiters(name: string): void {
    const position = this.positions.get(name)?.position;
    const queue = this.queues.get(name);
    if (position == null || !queue) return;
    for (const waiter of queue.takeUpTo(parsed(position))) {
      if (!waiter.done && !this.enqueue(waiter)) waiter.resolve(true);
    }
  }

  /**
   * Whether every named follower had reached `position` already at `since` (a performance.now()
   * time): then whatever they committed along with it was committed before `since` too.
   */
  reachedBefore(names: string[], position: GlobalPosition, since: number): boolean {
    return (
      this.reached(names, position) &&
      names.every((name) => (this.learnedAt.get(name) ?? Infinity) < since)
    );
  }

  /**
   * What the named projectors' live builds hold as far as this process knows, as text: the
   * resets heard so far, then each name (in the order given), its live build and its position. Null while one of
   * them has no position yet or has a reset not yet read: a switch or a rewind may have changed
   * what its position stands for. Equal texts at two moments mean no checkpoint of theirs moved
   * and no build of theirs changed in between, as far as this process heard.
   */
  knownState(names: readonly string[]): string | null {
    let state = String(this.resetsHeard);
    for (const name of names) {
      const known = this.positions.get(name);
      if (known?.position == null || this.resets.has(name)) return null;
      state += ` ${name} ${known.build} ${known.position}`;
    }
    return state;
  }

  /** The count of resets heard, for `knownState`'s first word; see there. */
  get resetCount(): number {
    return this.resetsHeard;
  }

  /**
   * Whether every named projector has a live build, whose tables reads can use: false for one new
   * to this deploy whose first build is still loading. A name not known live has the positions
   * read again first, so a first switch this process has not heard of (its notice lost) is not
   * taken for none.
   */
  async haveLiveBuilds(names: readonly string[]): Promise<boolean> {
    if (names.every((name) => this.positions.has(name))) return true;
    await this.refresh();
    return names.every((name) => this.positions.has(name));
  }

  /** Resolves true once every named projector has reached `position`, false after `timeoutMs`. */
  waitFor(names: string[], position: GlobalPosition, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        names,
        at: parsed(position),
        done: false,
        resolve: (reached) => {
          if (waiter.done) return;
          waiter.done = true;
          clearTimeout(timer);
          resolve(reached);
        },
      };
      if (!this.enqueue(waiter)) return resolve(true);
      // A waiter that times out stays in its queue, done, until a position passes it or many
      // more have timed out.
      const timer = setTimeout(() => {
        waiter.resolve(false);
        if (++this.timedOut < 1000) return;
        this.timedOut = 0;
        for (const queue of this.queues.values()) queue.retain((w) => !w.done);
      }, timeoutMs);
    });
  }

  async close(): Promise<void> {
    for (const queue of this.queues.values())
      for (const waiter of queue.drain()) waiter.resolve(false);
    if (this.safetyNet) clearInterval(this.safetyNet);
    await releaseWakeup(this.wakeup);
  }
}
