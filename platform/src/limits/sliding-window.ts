/**
 * A limit "in the last hour" counted with two fixed windows: this one and the one before, the
 * one before weighed by how much of it the last hour still covers. One row per key and window,
 * as fixed windows need, but no burst around a window's edge gets twice the limit through: 20
 * requests at 04:59 leave almost none for 05:00.
 */
export interface SlidingWindow {
  /** Seconds since the epoch at which the window holding `at` starts. */
  start: number;
  /** Seconds since the epoch at which the window before it starts. */
  previousStart: number;
  /** The share of the window before that the last `windowSeconds` still cover, 1 down to 0. */
  previousWeight: number;
}

export function slidingWindow(at: Date, windowSeconds: number): SlidingWindow {
  const seconds = at.getTime() / 1000;
  const start = Math.floor(seconds / windowSeconds) * windowSeconds;
  return {
    start,
    previousStart: start - windowSeconds,
    previousWeight: 1 - (seconds - start) / windowSeconds,
  };
}

/** Hits counted in the last window's length, this call's own among `current`. */
export function estimatedHits(current: number, previous: number, window: SlidingWindow): number {
  return current + previous * window.previousWeight;
}

/**
 * Whole seconds until one more hit would be within `max`, given the hits that stand (`current`
 * in this window without the refused one, `previous` in the one before). At least 1.
 */
export function secondsUntilRoom(
  current: number,
  previous: number,
  max: number,
  window: SlidingWindow,
  windowSeconds: number,
): number {
  const untilNext = window.previousWeight * windowSeconds;
  let wait: number;
  if (current + 1 <= max && previous > 0) {
    // Still in this window: the window before weighs less each second.
    wait = Math.max(0, untilNext - (windowSeconds * (max - current - 1)) / previous);
  } else if (current + 1 <= max) {
    wait = 0;
  } else {
    // This window is full itself: in the next, it is the one before and weighs less each second.
    wait = untilNext + Math.max(0, windowSeconds * (1 - (max - 1) / current));
  }
  // To the millisecond first: 3600 × (1 − 19/20) is 180, not 180.00000000000003.
  return Math.max(1, Math.ceil(Math.round(wait * 1000) / 1000));
}
