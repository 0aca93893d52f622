import { performance } from 'node:perf_hooks';
import { createPool } from '@wagers/platform/db';
import { anchorLegacyStreams } from '@wagers/platform/event-store/chain-anchors';
import { verifyLog } from '@wagers/platform/event-store/chain-verifier';
import { withHashChain } from '@wagers/platform/event-store/hash-chain';
import type { AppendOptions, EventStore } from '@wagers/platform/event-store/port';
import { createPostgresEventStore } from '@wagers/platform/event-store/postgres';
import { sampleEvent } from '@wagers/platform/event-store/sample-events';
import { migrate, platformMigrations } from '@wagers/platform/migrations';
import { createTestDatabase } from '@wagers/test-support/database';
import { printTable, type Cell } from './table.ts';

/** How long each measurement runs; BENCH_SECONDS=10 for steadier figures. */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
/** Events per stream, about a long bet's history. */
const STREAM_LENGTH = 12;

const benchEvent = () =>
  sampleEvent('BetProposed', {
    betId: crypto.randomUUID(),
    stake: { amount: 1000, currency: 'EUR' },
    terms: 'Whoever loses buys the next round of coffee for the whole team',
  });

/**
 * One writer appending one event at a time to short streams, for SECONDS: events per second.
 * `options` gives the append options for the event at `revision` and the hash the writer holds.
 */
async function appendRate(
  store: EventStore,
  options: (revision: number, previousHash: string | undefined) => AppendOptions,
): Promise<number> {
  let written = 0;
  const end = performance.now() + SECONDS * 1000;
  const started = performance.now();
  for (let stream = 0; performance.now() < end; stream++) {
    const streamId = `bench-${crypto.randomUUID()}`;
    let previousHash: string | undefined;
    for (let revision = 0; revision < STREAM_LENGTH; revision++) {
      const event = benchEvent();
      await store.appendToStream(streamId, [event], options(revision, previousHash));
      previousHash = (await store.readStream(streamId, { fromRevision: BigInt(revision) }))[0]
        ?.metadata.hash;
      written++;
    }
  }
  return written / ((performance.now() - started) / 1000);
}

const exact = (revision: number): AppendOptions => ({
  expectedRevision: revision === 0 ? 'no_stream' : BigInt(revision - 1),
});

/**
 * `npm run bench hash-chain`: appends through the hash-chain decorator against the bare
 * PostgreSQL adapter (the baseline) in the same run, and how fast the verifier rechecks the log.
 * Every scenario reads the event back after appending, so all pay the same read.
 */
export async function hashChainBench(): Promise<void> {
  const database = await createTestDatabase('wagers_bench');
  await migrate(database.url, [platformMigrations]);
  const pool = createPool(database.url, 4);
  const plain = createPostgresEventStore(pool, { connectionString: database.url });
  const chained = withHashChain(plain);
  try {
    const baseline = await appendRate(plain, exact);
    const scenarios: [string, number][] = [
      ['bare adapter, exact revision (baseline)', baseline],
      [
        'hash chain, exact revision, hash handed over (commands)',
        await appendRate(chained, (revision, previousHash) => ({
          ...exact(revision),
          ...(previousHash ? { previousHash } : {}),
        })),
      ],
      ['hash chain, exact revision, hash read first', await appendRate(chained, exact)],
      [
        'hash chain, revision any (stream read first)',
        await appendRate(chained, () => ({ expectedRevision: 'any' })),
      ],
    ];
    const rows: Cell[][] = scenarios.map(([name, rate]) => [
      name,
      { value: rate },
      { value: rate / baseline, digits: 2 },
    ]);
    printTable(
      `Appends, one writer, ${STREAM_LENGTH}-event streams, ${SECONDS} s each (shared machine)`,
      ['scenario', 'events/s', 'x baseline'],
      rows,
    );

    // The baseline's streams carry no hash: anchor them as the one-time step does for old logs.
    await anchorLegacyStreams(chained, pool);
    const started = performance.now();
    const report = await verifyLog(chained, pool);
    const seconds = (performance.now() - started) / 1000;
    printTable(
      'Verifying the whole log (npm run audit -- verify)',
      ['events', 'streams', 'broken', 'events/s'],
      [
        [
          { value: report.events },
          { value: report.streams },
          { value: report.broken.length },
          { value: report.events / seconds },
        ],
      ],
    );
  } finally {
    await plain.close();
    await pool.end();
    await database.drop();
  }
}
