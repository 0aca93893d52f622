import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  eventStoreDbUnderTestName,
  startEventStoreDbUnderTest,
  type EventStoreDbUnderTest,
} from '@wagers/test-support/eventstoredb/under-test';
import { inTransaction } from '../db.ts';
import { connectEventStoreDb } from '../event-store/eventstoredb.ts';
import type { EventStore } from '../event-store/port.ts';
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
    const [lag] = await projectorLag(log.pool, log.store, { only: { name: 'behind', build: 1 } });
    expect(lag).toMatchObject({ name: 'behind', status: 'live', lagEvents: 1 });
    expect(lag!.lagSeconds).toBeGreaterThanOrEqual(0);
    expect(lag!.lagSeconds).toBeLessThan(60);
  });
});

describe(`how far a build trails a log on ${eventStoreDbUnderTestName}, where es_events stays empty`, () => {
  let log: WatchedLog;
  let server: EventStoreDbUnderTest;
  let store: EventStore;
  // Streams of this run's own: a real server at EVENTSTORE_URL keeps what earlier runs wrote.
  const stream = `s-lag-${Date.now()}`;
  beforeAll(async () => {
    log = await openWatchedLog();
    server = await startEventStoreDbUnderTest();
    store = connectEventStoreDb(server.url);
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await server?.stop();
    await closeWatchedLog(log);
  });

  it('counts the events after the checkpoint through the log, up to a cap beyond which it says at least', async () => {
    const written = await store.appendToStream(
      stream,
      [1, 2, 3, 4, 5].map(() => sampleEvent('Counted', {})),
      { expectedRevision: 'no_stream' },
    );
    // Its checkpoint is the first of the five, so four are still to apply.
    const [first] = await store.readStream(stream, { maxCount: 1 });
    await inTransaction(log.pool, async (client) => {
      await ensureFollowerBuild(client, { name: 'esdb-behind', version: 1 });
      await ensureFollowerBuild(client, { name: 'esdb-head', version: 1 });
    });
    await log.pool.query(`UPDATE projection_checkpoints SET position = $1 WHERE name = $2`, [
      first!.position,
      'esdb-behind',
    ]);
    await log.pool.query(`UPDATE projection_checkpoints SET position = $1 WHERE name = $2`, [
      written.position,
      'esdb-head',
    ]);

    const [behind] = await projectorLag(log.pool, store, {
      only: { name: 'esdb-behind', build: 1 },
    });
    expect(behind).toMatchObject({ lagEvents: 4, lagEventsAtLeast: false });
    expect(behind!.lagSeconds).toBeGreaterThanOrEqual(0);
    expect(behind!.lagSeconds).toBeLessThan(60);
    const [atHead] = await projectorLag(log.pool, store, { only: { name: 'esdb-head', build: 1 } });
    expect(atHead).toMatchObject({ lagEvents: 0, lagEventsAtLeast: false, lagSeconds: 0 });

    const [capped] = await projectorLag(log.pool, store, {
      only: { name: 'esdb-behind', build: 1 },
      countCap: 3,
    });
    expect(capped).toMatchObject({ lagEvents: 3, lagEventsAtLeast: true });
    const [exactlyTheCap] = await projectorLag(log.pool, store, {
      only: { name: 'esdb-behind', build: 1 },
      countCap: 4,
    });
    expect(exactlyTheCap).toMatchObject({ lagEvents: 4, lagEventsAtLeast: false });
  });
});
