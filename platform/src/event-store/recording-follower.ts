import type { GlobalPosition } from '@wagers/contracts/position';
import type { EventStore, RecordedEvent, Subscription } from './port.ts';

/** A subscription to the global log that keeps what it was given, for tests of event stores. */
export interface RecordingFollower {
  /** Every delivered event, in delivery order. */
  readonly events: RecordedEvent[];
  /** Sizes of the pages `onEvents` was called with. */
  readonly pageSizes: number[];
  /** For each time the subscription said it had caught up, how many kept events it had delivered. */
  readonly caughtUp: number[];
  readonly subscription: Subscription;
  /**
   * Resolves once `condition` holds; rejects with `description` if it still does not after
   * `timeoutMs`, or at once when delivery fails.
   */
  until(condition: () => boolean, description: string, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface FollowOptions {
  after?: GlobalPosition | null;
  batchSize?: number;
  /** Only events for which this holds are kept; a shared server carries other tests' events. */
  keep?: (event: RecordedEvent) => boolean;
}

export function followAll(store: EventStore, options: FollowOptions = {}): RecordingFollower {
  const events: RecordedEvent[] = [];
  const pageSizes: number[] = [];
  const caughtUp: number[] = [];
  let failure: Error | null = null;
  const waiters = new Set<() => void>();
  const check = () => {
    for (const waiter of waiters) waiter();
  };

  const subscription = store.subscribeToAll({
    after: options.after ?? null,
    ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
    onEvents: (page) => {
      pageSizes.push(page.length);
      for (const event of page) if (options.keep?.(event) ?? true) events.push(event);
      check();
      return Promise.resolve();
    },
    onCaughtUp: () => {
      caughtUp.push(events.length);
      check();
    },
    onError: (error) => {
      failure =
        error instanceof Error ? error : new Error(`subscription failed: ${JSON.stringify(error)}`);
      check();
    },
  });

  return {
    events,
    pageSizes,
    caughtUp,
    subscription,
    until(condition, description, timeoutMs = 20_000) {
      return new Promise<void>((resolve, reject) => {
        const settle = () => {
          if (failure !== null) {
            finish();
            reject(failure);
          } else if (condition()) {
            finish();
            resolve();
          }
        };
        const timer = setTimeout(() => {
          finish();
          reject(
            new Error(
              `Follower timed out waiting for: ${description} (has ${events.length} events)`,
            ),
          );
        }, timeoutMs);
        // A condition may also watch things outside the subscription.
        const poll = setInterval(settle, 20);
        function finish() {
          clearTimeout(timer);
          clearInterval(poll);
          waiters.delete(settle);
        }
        waiters.add(settle);
        settle();
      });
    },
    stop: () => subscription.stop(),
  };
}
