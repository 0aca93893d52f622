import { describe, expect, it } from 'vitest';
import { PAGE_INTERVAL, pageIntervalFor } from './page-interval.ts';

const { eventsPerPage, leastMs, mostMs } = PAGE_INTERVAL;

describe('a live follower’s page interval', () => {
  it('is the time a page takes to gather its events at the rate they have lately come', () => {
    // 8 events over 12 ms: another 8 come in 12 ms.
    expect(pageIntervalFor(eventsPerPage, 12)).toBe(12);
    // Twice the events in the same time: half the wait.
    expect(pageIntervalFor(2 * eventsPerPage, 30)).toBe(15);
  });

  it('is never shorter than the least interval, however strong the flow', () => {
    expect(pageIntervalFor(40, 20)).toBe(leastMs);
    expect(pageIntervalFor(1_000, 1)).toBe(leastMs);
  });

  it('is never longer than the most, however weak the flow, after an idle wait or for nothing', () => {
    expect(pageIntervalFor(2, 20)).toBe(mostMs);
    expect(pageIntervalFor(1, Infinity)).toBe(mostMs);
    expect(pageIntervalFor(0, 20)).toBe(mostMs);
    expect(pageIntervalFor(3, Number.NaN)).toBe(mostMs);
  });

  it('takes other bounds', () => {
    const bounds = { eventsPerPage: 4, leastMs: 1, mostMs: 100 };
    expect(pageIntervalFor(4, 50, bounds)).toBe(50);
    expect(pageIntervalFor(400, 50, bounds)).toBe(1);
  });
});
