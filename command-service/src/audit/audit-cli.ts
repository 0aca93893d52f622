import { betStream } from '@wagers/contracts/events/bet';
import { ConfigError, loadConfig } from '@wagers/platform/config';
import { createPool } from '@wagers/platform/db';
import { anchorLegacyStreams } from '@wagers/platform/event-store/chain-anchors';
import {
  verifyLog,
  verifyStream,
  type ChainReport,
} from '@wagers/platform/event-store/chain-verifier';
import { createEventStore } from '@wagers/platform/event-store/factory';

const usage = `Usage: npm run audit -- <command>

  verify [BET_ID]   recompute the hash chain of one bet, or of every stream in the log, and name
                    the first broken link of each broken stream
  anchor            one-time step: anchor the chains of streams written before hash chains

Reads DATABASE_URL (and EVENT_STORE) like the services do.`;

const reasons = {
  hash_mismatch: 'its stored hash does not match the one recomputed from what is stored',
  missing_hash: 'it carries no hash and its stream was never anchored',
  anchor_mismatch: 'the events up to here no longer match the anchored chain',
};

function formatReport(report: ChainReport): string {
  const lines = report.broken.map(
    (link) =>
      `BROKEN ${link.streamId} at revision ${link.revision} (event ${link.eventId}): ${reasons[link.reason]}` +
      `\n  expected ${link.expected}\n  found    ${link.found ?? '(none)'}`,
  );
  const summary = `${report.events} events in ${report.streams} streams checked, ${report.broken.length} broken`;
  return [...lines, summary].join('\n');
}

async function main(args: string[]): Promise<number> {
  const [command, betId] = args;
  if (command !== 'verify' && command !== 'anchor') {
    console.error(usage);
    return 2;
  }
  const config = loadConfig();
  if (!config.DATABASE_URL) {
    console.error('DATABASE_URL is not set: point it at the database the services use.');
    return 2;
  }
  const pool = createPool(config.DATABASE_URL, 2);
  const store = createEventStore(config, pool, config.DATABASE_URL);
  try {
    if (command === 'anchor') {
      console.log(`anchored ${await anchorLegacyStreams(store, pool)} streams`);
      return 0;
    }
    const report = betId
      ? await verifyStream(store, pool, betStream(betId))
      : await verifyLog(store, pool);
    if (betId && report.events === 0) {
      console.error(`No bet ${betId} in the log.`);
      return 2;
    }
    console.log(formatReport(report));
    return report.broken.length === 0 ? 0 : 1;
  } finally {
    await store.close();
    await pool.end();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
