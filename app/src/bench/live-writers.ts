import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { betStream } from '@wagers/contracts/events/bet';
import { lowerBackendPriority } from '@wagers/platform/backend-priority';
import { createPool } from '@wagers/platform/db';
import { createPostgresEventStore } from '@wagers/platform/event-store/postgres';
import { sampleEvent } from '@wagers/platform/event-store/sample-events';

/**
 * The writers of the live-latency bench, in a process of their own as the command service is in
 * service: they append bet proposals as fast as they can, and tell the parent of each commit as
 * it happens (over the IPC channel, with the time on a clock both processes share). Takes its
 * options as JSON in argv[2]; starts when the parent says so.
 */
export interface WritersOptions {
  databaseUrl: string;
  writers: number;
  /** Seconds of appends the parent does not count (the app warming up), then seconds it counts. */
  warmUpSeconds: number;
  seconds: number;
  creatorId: string;
  opponentId: string;
  /** The nice value the command service's appends run at (APPEND_NICE, decision 35). */
  appendNice: number;
}

export type WritersMessage =
  | { kind: 'commit'; id: string; position: string; at: number; counted: boolean }
  | { kind: 'done'; counted: number; lowered: number };

/** Milliseconds on a clock every process of the machine shares. */
export const sharedNow = () => performance.timeOrigin + performance.now();

/** A bet proposal between two people, as the command service would append it. */
export function proposal(creatorId: string, opponentId: string) {
  const betId = randomUUID();
  return {
    stream: betStream(betId),
    event: sampleEvent('BetProposed', {
      betId,
      creatorId,
      opponentId,
      inviteeEmail: null,
      inviteePhone: null,
      smsConsent: false,
      title: 'Who runs the faster 10k',
      description: 'Spring race in the park',
      wagerType: 'money',
      wagerAmountCents: 2500,
      wagerDescription: null,
      endDate: null,
      validationMode: 'both',
    }),
  };
}

async function main(options: WritersOptions): Promise<void> {
  const send = (message: WritersMessage) => process.send?.(message);
  const pool = createPool(options.databaseUrl, options.writers);
  // The writers' backends run as the command service's appends do.
  let lowered = 0;
  lowerBackendPriority(pool, {
    nice: options.appendNice,
    onOutcome: (outcome) => {
      if (outcome.lowered) lowered += 1;
    },
  });
  const store = createPostgresEventStore(pool, { connectionString: options.databaseUrl });
  await new Promise<void>((resolve) => process.once('message', () => resolve()));
  const start = performance.now();
  const countFrom = start + options.warmUpSeconds * 1000;
  const deadline = countFrom + options.seconds * 1000;
  let counted = 0;
  await Promise.all(
    Array.from({ length: options.writers }, async () => {
      while (performance.now() < deadline) {
        const { stream, event } = proposal(options.creatorId, options.opponentId);
        const written = await store.appendToStream(stream, [event], {
          expectedRevision: 'no_stream',
        });
        const at = sharedNow();
        const isCounted = performance.now() >= countFrom;
        if (isCounted) counted += 1;
        send({ kind: 'commit', id: event.id, position: written.position, at, counted: isCounted });
      }
    }),
  );
  // Delivered before the channel closes: a message still being written when the process
  // disconnects is lost, and the bench would wait for it.
  await new Promise<void>((resolve) => {
    if (process.send)
      process.send({ kind: 'done', counted, lowered } satisfies WritersMessage, () => resolve());
    else resolve();
  });
  await store.close();
  await pool.end();
}

// Runs as the bench's child process; the bench itself imports the definitions above.
if (process.send && process.argv[1]?.endsWith('live-writers.ts')) {
  await main(JSON.parse(process.argv[2] ?? '{}') as WritersOptions);
  process.disconnect();
}
