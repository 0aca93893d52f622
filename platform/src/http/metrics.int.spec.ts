import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventStoreDbUnderTestName,
  startEventStoreDbUnderTest,
  type EventStoreDbUnderTest,
} from '@wagers/test-support/eventstoredb/under-test';
import { startEventStoreDbStandIn } from '@wagers/test-support/eventstoredb/server';
import { inTransaction } from '../db.ts';
import { connectEventStoreDb } from '../event-store/eventstoredb.ts';
import type { EventStore } from '../event-store/port.ts';
import { sampleEvent } from '../event-store/sample-events.ts';
import { ensureFollowerBuild } from '../projections/builds.ts';
import { closeWatchedLog, openWatchedLog, type WatchedLog } from '../projections/watched-log.ts';
import { createMetrics } from './metrics.ts';

describe(`/metrics with the log on ${eventStoreDbUnderTestName}`, () => {
  let log: WatchedLog;
  let server: EventStoreDbUnderTest;
  let store: EventStore;
  const name = `metrics-${Date.now()}`;

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

  /** /metrics as a service whose log is `theLog` serves it. */
  const scrape = async (theLog: EventStore) => {
    const metrics = createMetrics({
      projections: { pool: log.pool, store: theLog },
      access: { production: false },
    });
    const app = express();
    app.use(metrics.router);
    const http = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    try {
      const address = http.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(response.status).toBe(200);
      return await response.text();
    } finally {
      await new Promise((resolve) => http.close(resolve));
    }
  };

  it('shows a build stopped at an event and how far it trails the log, and where it stopped even with the log out of reach', async () => {
    const poison = await store.appendToStream(
      `${name}-stream`,
      [sampleEvent('Broken', {}), sampleEvent('After', {})],
      { expectedRevision: 'no_stream' },
    );
    await inTransaction(log.pool, (client) => ensureFollowerBuild(client, { name, version: 1 }));
    await log.pool.query(
      `UPDATE projection_checkpoints
          SET error = 'cannot apply Broken', error_position = $2, error_event_id = $3
        WHERE name = $1`,
      [name, poison.position, '00000000-0000-4000-8000-000000000001'],
    );

    const stopped = new RegExp(
      `^wagers_projection_stopped\\{projector="${name}",build="1",position="${poison.position}",event_id="00000000-0000-4000-8000-000000000001",error="cannot apply Broken"\\} 1$`,
      'm',
    );
    const status = new RegExp(
      `^wagers_projection_build_status\\{projector="${name}",build="1",version="1",status="live"\\} 1$`,
      'm',
    );
    const lag = new RegExp(`^wagers_projection_lag_events\\{projector="${name}"\\} (\\d+)$`, 'm');
    const reachable = await scrape(store);
    expect(reachable).toMatch(stopped);
    expect(reachable).toMatch(status);
    expect(reachable).toMatch(lag);
    expect(Number(lag.exec(reachable)![1])).toBeGreaterThanOrEqual(2);

    // A log whose server has gone away (a stand-in even where EVENTSTORE_URL names a real server,
    // which stays up): how far behind the build is cannot be told, and is not shown as 0.
    const gone = await startEventStoreDbStandIn();
    const unreachableLog = connectEventStoreDb(gone.url);
    await gone.stop();
    try {
      const unreachable = await scrape(unreachableLog);
      expect(unreachable).toMatch(stopped);
      expect(unreachable).toMatch(status);
      expect(unreachable).not.toMatch(lag);
    } finally {
      await unreachableLog.close();
    }
  }, 60_000);
});
