import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventStoreDbUnderTestName,
  startEventStoreDbUnderTest,
  type EventStoreDbUnderTest,
} from '@wagers/test-support/eventstoredb/under-test';
import { connectEventStoreDb } from '@wagers/platform/event-store/eventstoredb';
import type { EventStore } from '@wagers/platform/event-store/port';
import { sampleEvent } from '@wagers/platform/event-store/sample-events';
import { createLogger } from '@wagers/platform/logger';
import type { Projector } from '@wagers/platform/projections/projector';
import {
  closeWatchedLog,
  openWatchedLog,
  type WatchedLog,
} from '@wagers/platform/projections/watched-log';
import { formatProgress } from './format.ts';
import { rebuildProjector, type RebuildProgress } from './projections.ts';

const logger = createLogger('silent');
const EVENTS = 60;

/** Counts events per stream, taking its time over each, so a rebuild can be watched under way. */
function slow(name: string): Projector {
  return {
    name,
    version: 1,
    tables: [`${name}_rows`],
    schema: {
      tables: `CREATE TABLE ${name}_rows (id text PRIMARY KEY, n int NOT NULL)`,
      indexes: `CREATE INDEX ${name}_rows_n ON ${name}_rows (n)`,
    },
    async apply(client, event) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      await client.query(
        `INSERT INTO ${name}_rows (id, n) VALUES ($1, 1)
         ON CONFLICT (id) DO UPDATE SET n = ${name}_rows.n + 1`,
        [event.streamId],
      );
    },
  };
}

describe(`a rebuild's progress with the log on ${eventStoreDbUnderTestName}`, () => {
  let log: WatchedLog;
  let server: EventStoreDbUnderTest;
  let store: EventStore;

  beforeAll(async () => {
    log = await openWatchedLog();
    server = await startEventStoreDbUnderTest();
    store = connectEventStoreDb(server.url);
    await store.appendToStream(
      `rebuilt-${Date.now()}`,
      Array.from({ length: EVENTS }, () => sampleEvent('Counted', {})),
      { expectedRevision: 'no_stream' },
    );
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await server?.stop();
    await closeWatchedLog(log);
  });

  const rebuild = async (name: string, lagCountCap?: number) => {
    const seen: RebuildProgress[] = [];
    const result = await rebuildProjector(slow(name), {
      pool: log.pool,
      store,
      connectionString: log.db.url,
      logger,
      pollMs: 50,
      pageSize: 5,
      manualSwitch: true,
      onProgress: (progress) => seen.push(progress),
      ...(lagCountCap === undefined ? {} : { lagCountCap }),
    });
    return { result, lines: seen.map(formatProgress), seen };
  };

  /** Applied and total as a progress line shows them; the total as written, "≥ " included. */
  const counts = (line: string) => {
    const [, applied, total] = /\] (?:≤ )?\d+% ([\d,]+)\/((?:≥ )?[\d,]+) events/.exec(line)!;
    return { applied: Number(applied!.replaceAll(',', '')), total: total! };
  };
  // The log holds the events written and the operator's record of each rebuild asked for.
  const inTheLog = (total: string) => Number(total.replaceAll(',', ''));

  it('shows the whole log still to apply under way, and says it has caught up only once it has', async () => {
    const { result, lines, seen } = await rebuild('esdb_rebuilt');
    expect(result.outcome).toBe('caught up');
    const underWay = lines.filter((_, i) => !seen[i]!.done && seen[i]!.applied < EVENTS);
    expect(underWay.length).toBeGreaterThan(0);
    for (const line of underWay) {
      expect(inTheLog(counts(line).total)).toBeGreaterThan(EVENTS);
      expect(line).not.toContain('100%');
      expect(line).not.toContain('≥');
    }
    const last = counts(lines.at(-1)!);
    expect(lines.at(-1)).toContain('] 100% ');
    expect(String(last.applied)).toBe(last.total);
    expect(last.applied).toBeGreaterThan(EVENTS);
  }, 120_000);

  it('shows a total the log counted only up to its cap as at least that, counted again as the build reaches it, and the whole count at the end', async () => {
    const { result, lines, seen } = await rebuild('esdb_capped', 10);
    expect(result.outcome).toBe('caught up');
    const first = lines[0]!;
    expect(seen[0]!.applied).toBeLessThan(EVENTS - 10);
    expect(first).toMatch(/\] ≤ \d+% [\d,]+\/≥ [\d,]+ events/);
    // Counted again each time the build reaches the bound, it never looks done before it is.
    for (const line of lines.filter((line) => line.includes('≥'))) {
      const { applied, total } = counts(line);
      expect(applied).toBeLessThan(inTheLog(total.slice(2)));
      expect(line).not.toContain('100%');
    }
    const last = counts(lines.at(-1)!);
    expect(lines.at(-1)).toContain('] 100% ');
    expect(String(last.applied)).toBe(last.total);
    expect(last.applied).toBeGreaterThan(EVENTS);
  }, 120_000);
});
