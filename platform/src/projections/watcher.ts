import type { Pool } from 'pg';
import { comparePositions, type GlobalPosition } from '@wagers/contracts/position';
import { LogWakeup } from '../event-store/wakeup.ts';
import { readLivePositions } from './checkpoints.ts';
import { PROJECTIONS_CHANNEL } from './projector.ts';

interface Waiter {
  names: string[];
  position: GlobalPosition;
  resolve: (reached: boolean) => void;
}

/**
 * Read-your-writes: lets a query wait until the projectors it reads have passed a position.
 * Follows each projector's live build (the one reads see), including across a switch. Woken by
 * the notification every checkpoint commit and every switch sends, never by polling.
 */
export class ProjectionWatcher {
  private readonly wakeup: LogWakeup;
  private readonly positions = new Map<string, GlobalPosition | null>();
  /** When (performance.now()) each checkpoint's current position reached this process. */
  private readonly learnedAt = new Map<string, number>();
  private readonly waiters = new Set<Waiter>();
  private refreshing: Promise<void> | null = null;
  private refreshAgain = false;

  constructor(
    private readonly pool: Pool,
    connectionString: string,
  ) {
    this.wakeup = new LogWakeup(connectionString, PROJECTIONS_CHANNEL);
  }

  async start(): Promise<void> {
    this.wakeup.onWake(() => void this.refresh());
    await this.wakeup.ready();
    await this.refresh();
  }

  private reached(names: string[], position: GlobalPosition): boolean {
    return names.every((name) => {
      const at = this.positions.get(name);
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
        const live = await readLivePositions(this.pool).catch(() => null);
        const now = performance.now();
        for (const [name, position] of live ?? []) {
          if (this.positions.get(name) === position) continue;
          this.positions.set(name, position);
          this.learnedAt.set(name, now);
        }
        for (const waiter of this.waiters) {
          if (this.reached(waiter.names, waiter.position)) {
            this.waiters.delete(waiter);
            waiter.resolve(true);
          }
        }
      } while (this.refreshAgain);
    })().finally(() => (this.refreshing = null));
    return this.refreshing;
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

  /** Resolves true once every named projector has reached `position`, false after `timeoutMs`. */
  waitFor(names: string[], position: GlobalPosition, timeoutMs: number): Promise<boolean> {
    if (this.reached(names, position)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        names,
        position,
        resolve: (reached) => {
          clearTimeout(timer);
          resolve(reached);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        resolve(false);
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  async close(): Promise<void> {
    for (const waiter of this.waiters) waiter.resolve(false);
    this.waiters.clear();
    await this.wakeup.close();
  }
}
