import { betStream } from '@wagers/contracts/events/bet';
import { anchorLegacyStreams } from '@wagers/platform/event-store/chain-anchors';
import {
  verifyLog,
  verifyStream,
  type ChainReport,
} from '@wagers/platform/event-store/chain-verifier';
import { asksForHelp, exitWithUsage } from '@wagers/platform/operator-cli-usage';
import { runOperatorCommand } from './operator-cli.ts';
import { progressPrinter } from './progress.ts';

const usage = `Usage: npm run audit -- <command>

  verify [BET_ID]   recompute the hash chain of one bet, or of every stream in the log, and name
                    the first broken link of each broken stream
  anchor            one-time step: anchor the chains of streams written before hash chains

Reads DATABASE_URL (and EVENT_STORE) like the services do; without it, the database that
"npm start" runs.`;

const reasons = {
  hash_mismatch: 'its stored hash does not match the one recomputed from what is stored',
  missing_hash: 'it carries no hash and its stream was never anchored',
  anchor_mismatch: 'the events up to here no longer match the anchored chain',
  missing_event: 'an event before it is missing (its revision is not the next one)',
};
/** A missing event where no event follows: the stream ends before its anchored revision. */
const missingAtEnd =
  'the stream ends here, before the revision it was anchored through: its last events are missing';

/** Why a link is broken, in words; a hash mismatch with no stored hash had no metadata object. */
const reason = (link: ChainReport['broken'][number]) =>
  link.reason === 'hash_mismatch' && link.found === null
    ? 'its metadata is not an object, as every writer stores it, so it carries no hash to match'
    : reasons[link.reason];

function formatReport(report: ChainReport): string {
  const lines = report.broken.map(
    (link) =>
      `BROKEN ${link.streamId} at revision ${link.revision} ` +
      (link.eventId === null
        ? `(no event): ${missingAtEnd}`
        : `(event ${link.eventId}): ${reason(link)}`) +
      `\n  expected ${link.expected}\n  found    ${link.found ?? '(none)'}`,
  );
  const summary = `${report.events} events in ${report.streams} streams checked, ${report.broken.length} broken`;
  return [...lines, summary].join('\n');
}

function main(args: string[]): void {
  const [command, betId] = args;
  if (asksForHelp(args) || (command !== 'verify' && command !== 'anchor')) {
    exitWithUsage(usage, args);
  }
  runOperatorCommand(async ({ pool, store }) => {
    // A pass over the whole log can take long: its progress goes to stderr, the report to stdout.
    const progress = progressPrinter({
      label: command,
      tty: process.stderr.isTTY,
      write: (text) => process.stderr.write(text),
    });
    let read = { events: 0 };
    const onPage = (now: { events: number }) => {
      read = now;
      progress.page(now);
    };
    if (command === 'anchor') {
      const anchored = await anchorLegacyStreams(store, pool, onPage);
      progress.done(read);
      console.log(`anchored ${anchored} streams`);
      return 0;
    }
    // Bet ids are stored in lower case, whatever case the operator pasted one in.
    const report = betId
      ? await verifyStream(store, pool, betStream(betId.toLowerCase()))
      : await verifyLog(store, pool, onPage);
    if (!betId) progress.done(read);
    // A bet with no event left is still in the log when its stream was anchored: it is broken.
    if (betId && report.events === 0 && report.broken.length === 0) {
      console.error(`No bet ${betId} in the log.`);
      return 2;
    }
    console.log(formatReport(report));
    return report.broken.length === 0 ? 0 : 1;
  });
}

main(process.argv.slice(2));
