/**
 * A live follower's page interval: the shortest time from the start of one page to the reading of
 * the next, once caught up. A page costs a transaction and a checkpoint whatever it holds, so the
 * follower waits long enough for a page to gather about `eventsPerPage` events at the rate they
 * have lately come, and no longer: under a strong flow the wait is short (the page fills soon,
 * and every event waits less for it); under a weak one it is long (a page of one or two events
 * would cost nearly as much as a full one). The bounds keep it between `leastMs` (so a follower
 * never commits more than a page per `leastMs`, however strong the flow) and `mostMs` (so an event
 * never waits longer than that for a page, however weak).
 */
export const PAGE_INTERVAL = {
  eventsPerPage: 8,
  leastMs: 10,
  mostMs: 20,
} as const;

/**
 * The interval after a page of `events` events that came in `sinceLastPageMs` (from the start of
 * the page before to the start of this one; Infinity after an idle wait): see `PAGE_INTERVAL`.
 */
export function pageIntervalFor(
  events: number,
  sinceLastPageMs: number,
  bounds: { eventsPerPage: number; leastMs: number; mostMs: number } = PAGE_INTERVAL,
): number {
  if (!(events > 0) || !(sinceLastPageMs >= 0)) return bounds.mostMs;
  const gather = (bounds.eventsPerPage * sinceLastPageMs) / events;
  return Math.min(bounds.mostMs, Math.max(bounds.leastMs, gather));
}
