import { describe, expect, it } from 'vitest';
import {
  backoffStrategy,
  CAPPED_BACKOFF,
  defaultJobOptions,
  retryDelayMs,
  retryHorizonMs,
} from './jobs.ts';

describe('how long a job is retried', () => {
  it('waits 1 s, then twice as long each time, never more than 10 minutes', () => {
    expect([1, 2, 3, 4, 10, 11].map(retryDelayMs)).toEqual([
      1000, 2000, 4000, 8000, 512_000, 600_000,
    ]);
    expect(retryDelayMs(47)).toBe(600_000);
    expect(backoffStrategy(3, CAPPED_BACKOFF)).toBe(4000);
    expect(() => backoffStrategy(3, 'other')).toThrow();
  });

  it('keeps trying for hours before a job lands in the failed set', () => {
    const hours = retryHorizonMs(defaultJobOptions.attempts) / 3_600_000;
    expect(hours).toBeGreaterThan(6);
    expect(hours).toBeLessThan(7);
    // 1023 s of doubling waits, then 37 waits of 10 minutes.
    expect(retryHorizonMs(defaultJobOptions.attempts)).toBe(1_023_000 + 37 * 600_000);
    expect(defaultJobOptions.backoff.type).toBe(CAPPED_BACKOFF);
  });
});
