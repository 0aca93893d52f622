import { performance } from 'node:perf_hooks';
import { createPool } from '@wagers/platform/db';
import { createDataKeys } from '@wagers/platform/event-store/data-keys';
import { withHashChain } from '@wagers/platform/event-store/hash-chain';
import { withPersonalData } from '@wagers/platform/event-store/personal-data';
import type { EventStore, EventToAppend } from '@wagers/platform/event-store/port';
import { createPostgresEventStore } from '@wagers/platform/event-store/postgres';
import { sampleEvent } from '@wagers/platform/event-store/sample-events';
import { migrate, platformMigrations } from '@wagers/platform/migrations';
import { createTestDatabase } from '@wagers/test-support/database';
import { printTable, type Cell } from './table.ts';

/** People in the log, and events per person: every event carries their names. */
const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 2_000);
const EVENTS_PER_PERSON = 25;
/** A projector's page when it rebuilds. */
const PAGE = 5_000;

const namesOf = (userId: string, i: number): EventToAppend =>
  sampleEvent('ProfileUpdated', { userId, firstName: `First ${i}`, lastName: `Last ${i}` });

/**
 * Reads the whole log in pages, as a rebuild does: events per second. `fields`: whether the
 * reader reads the names (the users projector does; one that skips the type does not).
 */
async function readRate(store: EventStore, fields = true): Promise<number> {
  const started = performance.now();
  let after: string | null = null;
  let read = 0;
  let length = 0;
  for (;;) {
    const page = await store.readAll({ after, maxCount: PAGE });
    if (page.length === 0) break;
    read += page.length;
    after = page[page.length - 1]!.position;
    if (!fields) continue;
    for (const { data } of page) {
      const { firstName, lastName } = data as { firstName: string | null; lastName: string | null };
      length += (firstName?.length ?? 0) + (lastName?.length ?? 0);
    }
  }
  if (fields && length === 0) throw new Error('read no names');
  return read / ((performance.now() - started) / 1000);
}

/**
 * `npm run bench personal-data`: reading a log in which every event has sealed personal fields,
 * through the decorator that opens them, against the same log read without it (the baseline), in
 * the same run. A cold decorator fetches each key once (one query per page for the page's new
 * keys); a warm one has them all cached. A field is deciphered when first read, so a reader that
 * skips the event type (most projectors skip most types) pays almost nothing.
 */
export async function personalDataBench(): Promise<void> {
  const database = await createTestDatabase('wagers_bench');
  await migrate(database.url, [platformMigrations]);
  const pool = createPool(database.url, 4);
  const chained = withHashChain(createPostgresEventStore(pool, { connectionString: database.url }));
  const sealing = withPersonalData(chained, createDataKeys(pool, database.url));
  try {
    for (let person = 0; person < PEOPLE; person++) {
      const userId = crypto.randomUUID();
      const events = Array.from({ length: EVENTS_PER_PERSON }, (_, i) => namesOf(userId, i));
      await sealing.appendToStream(`user-${userId}`, events, { expectedRevision: 'no_stream' });
    }
    const baseline = await readRate(chained);
    const cold = withPersonalData(chained, createDataKeys(pool, database.url));
    const scenarios: [string, number][] = [
      ['sealed log, read as stored (baseline)', baseline],
      ['opened, cold key cache, names read', await readRate(cold)],
      ['opened, warm key cache, names read', await readRate(cold)],
      ['opened, warm key cache, names not read', await readRate(cold, false)],
    ];
    await cold.close();
    const rows: Cell[][] = scenarios.map(([name, rate]) => [
      name,
      { value: rate },
      { value: rate / baseline, digits: 2 },
    ]);
    printTable(
      `Reading ${PEOPLE * EVENTS_PER_PERSON} events in pages of ${PAGE}, ${PEOPLE} keys, 2 sealed fields each (shared machine)`,
      ['scenario', 'events/s', 'x baseline'],
      rows,
    );
  } finally {
    await sealing.close();
    await pool.end();
    await database.drop();
  }
}
