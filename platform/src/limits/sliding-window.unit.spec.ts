import { describe, expect, it } from 'vitest';
import { estimatedHits, secondsUntilRoom, slidingWindow } from './sliding-window.ts';

const HOUR = 3600;
const at = (iso: string) => new Date(iso);

describe('a limit over the last window', () => {
  it('weighs the window before by how much of it the last hour still covers', () => {
    const window = slidingWindow(at('2026-11-28T05:15:00Z'), HOUR);
    expect(new Date(window.start * 1000).toISOString()).toBe('2026-11-28T05:00:00.000Z');
    expect(new Date(window.previousStart * 1000).toISOString()).toBe('2026-11-28T04:00:00.000Z');
    expect(window.previousWeight).toBeCloseTo(0.75);
    expect(estimatedHits(2, 20, window)).toBeCloseTo(17);
  });

  it('lets no burst around a window edge through twice: 20 at 04:59 leave no room at 05:00', () => {
    const window = slidingWindow(at('2026-11-28T05:00:10Z'), HOUR);
    expect(estimatedHits(1, 20, window)).toBeGreaterThan(20);
    // With the last of them an hour old, there is room again.
    expect(estimatedHits(1, 20, slidingWindow(at('2026-11-28T05:59:00Z'), HOUR))).toBeLessThan(20);
  });

  it('tells a caller refused on the window before when one more fits', () => {
    // 05:00:10, 20 the hour before and none now: room once 1/20 of the hour before has passed.
    const window = slidingWindow(at('2026-11-28T05:00:10Z'), HOUR);
    const wait = secondsUntilRoom(0, 20, 20, window, HOUR);
    expect(wait).toBe(180 - 10);
    const then = slidingWindow(at(`2026-11-28T05:03:00Z`), HOUR);
    expect(estimatedHits(1, 20, then)).toBeLessThanOrEqual(20);
  });

  it('tells a caller whose own window is full to wait into the next, until it weighs enough less', () => {
    // 20 in 05:00's hour, at 05:30: the next hour starts in 30 minutes, and 05:00's 20 must then
    // weigh 19 or less: 3 minutes more.
    const window = slidingWindow(at('2026-11-28T05:30:00Z'), HOUR);
    expect(secondsUntilRoom(20, 7, 20, window, HOUR)).toBe(1800 + 180);
  });

  it('always asks for at least a second', () => {
    const window = slidingWindow(at('2026-11-28T05:59:59.900Z'), HOUR);
    expect(secondsUntilRoom(19, 1, 20, window, HOUR)).toBe(1);
  });
});
