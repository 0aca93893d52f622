import { describe, expect, it } from 'vitest';
import type { ProjectorLag } from '@wagers/platform/projections/lag';
import { formatProgress, formatStatus } from './format.ts';
import type { RebuildProgress } from './projections.ts';

const build = (lag: Partial<ProjectorLag>): ProjectorLag => ({
  name: 'bets',
  build: 2,
  version: 3,
  status: 'building',
  position: '100-100',
  schemaName: 'proj_bets_b2',
  indexed: false,
  autoSwitch: true,
  events: 5_000,
  error: null,
  errorPosition: null,
  errorEventId: null,
  createdAt: new Date(),
  switchedAt: null,
  retiredAt: null,
  updatedAt: new Date(),
  lagEvents: 10_000,
  lagEventsAtLeast: true,
  lagSeconds: 42.25,
  ...lag,
});

const progress = (values: Partial<RebuildProgress>): RebuildProgress => ({
  name: 'bets',
  build: 2,
  applied: 5_000,
  total: 15_000,
  totalAtLeast: false,
  rate: 1_000,
  secondsLeft: 10,
  done: false,
  runner: 'this process',
  ...values,
});

describe('what an operator is shown of a lag the log counted only up to a cap', () => {
  it('shows the lag in events as at least the cap in status', () => {
    const shown = formatStatus({ head: '900-900', builds: [build({})], neverRun: [] });
    expect(shown).toMatch(/^bets\s+2\s+3\s+building, loading\s+100-100\s+5000\s+≥ 10000\s+42\.3$/m);
    const counted = formatStatus({
      head: '900-900',
      builds: [build({ lagEvents: 7, lagEventsAtLeast: false })],
      neverRun: [],
    });
    expect(counted).toMatch(/^bets\s+2\s+3\s+building, loading\s+100-100\s+5000\s+7\s+42\.3$/m);
  });

  it('shows a rebuild whose total is a lower bound as at most so far done, with at least so much left', () => {
    expect(formatProgress(progress({ totalAtLeast: true }))).toBe(
      'bets build 2 [##########....................] ≤ 33% 5,000/≥ 15,000 events, ' +
        '1,000 events/s, ≥ 10 s left (built by this process)',
    );
    expect(formatProgress(progress({}))).toBe(
      'bets build 2 [##########....................] 33% 5,000/15,000 events, ' +
        '1,000 events/s, 10 s left (built by this process)',
    );
  });
});
