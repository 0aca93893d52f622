import { describe, expect, it } from 'vitest';
import { progressPrinter } from './progress.ts';

function printer(tty: boolean) {
  let clock = 0;
  const written: string[] = [];
  const progress = progressPrinter({
    label: 'verify',
    tty,
    write: (text) => written.push(text),
    now: () => clock,
  });
  return { progress, written, advance: (ms: number) => (clock += ms) };
}

describe('the progress of a pass over the whole log', () => {
  it('rewrites one line on a terminal every two seconds, with the events checked and the rate', () => {
    const { progress, written, advance } = printer(true);
    advance(500);
    progress.page({ events: 1000 });
    expect(written).toEqual([]);
    advance(1500);
    progress.page({ events: 2000 });
    expect(written).toEqual(['\rverify: 2,000 events checked in 2.0 s (1,000 events/s)\u001b[K']);
    advance(1000);
    progress.page({ events: 3000 });
    expect(written).toHaveLength(1);
    advance(1000);
    progress.done({ events: 3500 });
    expect(written.at(-1)).toBe('\rverify: 3,500 events checked in 4.0 s (875 events/s)\u001b[K\n');
  });

  it('elsewhere writes a whole line every ten pages, and one at the end', () => {
    const { progress, written, advance } = printer(false);
    for (let page = 1; page <= 25; page++) {
      advance(100);
      progress.page({ events: page * 1000 });
    }
    progress.done({ events: 25_400 });
    expect(written).toEqual([
      'verify: 10,000 events checked in 1.0 s (10,000 events/s)\n',
      'verify: 20,000 events checked in 2.0 s (10,000 events/s)\n',
      'verify: 25,400 events checked in 2.5 s (10,160 events/s)\n',
    ]);
  });
});
