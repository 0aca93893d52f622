import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pollPause } from './projections.ts';

describe('the pause between two looks at a build under way', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const settled = (promise: Promise<void>) => {
    let done = false;
    void promise.then(() => (done = true));
    return () => done;
  };

  it('lasts the whole interval when nothing can interrupt it', async () => {
    const done = settled(pollPause(250));
    await vi.advanceTimersByTimeAsync(249);
    expect(done()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done()).toBe(true);
  });

  it('ends as soon as the rebuild is interrupted', async () => {
    let interrupt!: () => void;
    const done = settled(pollPause(250, new Promise<void>((resolve) => (interrupt = resolve))));
    await vi.advanceTimersByTimeAsync(100);
    expect(done()).toBe(false);
    interrupt();
    await vi.advanceTimersByTimeAsync(0);
    expect(done()).toBe(true);
  });
});
