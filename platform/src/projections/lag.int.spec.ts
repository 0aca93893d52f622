import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { inTransaction } from '../db.ts';
import { sampleEvent } from '../event-store/sample-events.ts';
import { ensureFollowerBuild } from './builds.ts';
import { projectorLag } from './lag.ts';
import { closeWatchedLog, openWatchedLog, type WatchedLog } from './watched-log.ts';

describe('how far a build trails the log', () => {
  let log: WatchedLog;
  beforeAll(async () => {
    log = await openWatchedLog();
  });
  afterAll(() => closeWatchedLog(log));
  afterEach(() => {
    vi.useRealTimers();
  });

  it("gives the age of the oldest event not applied by the database's clock, whatever the clock of the process asking", async () => {
    await inTransaction(log.pool, (client) =>
      ensureFollowerBuild(client, { name: 'behind', version: 1 }),
    );
    await log.store.appendToStream('s-behind', [sampleEvent('Counted', {})], {
      expectedRevision: 'any',
    });
    // The operator's machine runs an hour ahead of the database server.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 3_600_000);
    const [lag] = await projectorLag(log.pool, { name: 'behind', build: 1 });
    expect(lag).toMatchObject({ name: 'behind', status: 'live', lagEvents: 1 });
    expect(lag!.lagSeconds).toBeGreaterThanOrEqual(0);
    expect(lag!.lagSeconds).toBeLessThan(60);
  });
});
