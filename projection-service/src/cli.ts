import { isGlobalPosition } from '@wagers/contracts/position';
import { ConfigError, loadConfig } from '@wagers/platform/config';
import pg from 'pg';
import type { Pool } from 'pg';
import { createPool } from '@wagers/platform/db';
import { isDatabaseUnavailable } from '@wagers/platform/db-errors';
import { createEventStore } from '@wagers/platform/event-store/factory';
import { operatorDatabaseUrl } from '@wagers/platform/embedded';
import { lowerRebuildPriority } from '@wagers/platform/backend-priority';
import {
  endWithCommandLine,
  rebuildInSessionOfItsOwn,
  runsInRebuildSession,
} from './operator/rebuild-session.ts';
import { asksForHelp, showUsage } from '@wagers/platform/operator-cli-usage';
import { terminalLogger } from '@wagers/platform/logger';
import { readBuilds } from '@wagers/platform/projections/checkpoints';
import { DEFAULT_RETIRED_GRACE_MS } from '@wagers/platform/projections/runner';
import { formatDropped, formatProgress, formatStatus } from './operator/format.ts';
import {
  BuildRefused,
  dropExpiredBuilds,
  projectionStatus,
  rebuildProjector,
  retireBuild,
  skipEvent,
  switchProjector,
  type RebuildProgress,
} from './operator/projections.ts';
import { allProjectors } from './projectors.ts';

const usage = `Usage: npm run projections -w projection-service -- <command>

  status                  every build of every projector: state (live, building, retired),
                          checkpoint, lag in events and seconds, and where one stopped;
                          first drops the retired builds whose grace period is over (as a
                          running projection service does), and says which
  rebuild NAME [--manual-switch] [--page-size N]
                          build the projector anew next to the live build, with progress;
                          reads switch to it once it has caught up (by hand with
                          --manual-switch). Run again after an interruption to resume.
  switch NAME             switch reads to the build under way, once it has caught up
  retire NAME BUILD       drop a retired build's tables now, or abandon a build under way
  skip NAME POSITION      pass over the event a projector, or another follower of the log
                          status lists, stopped at (recorded in the log)

Reads DATABASE_URL (and EVENT_STORE) like the services do. Without DATABASE_URL it uses the
PostgreSQL that \`npm start\` runs under DATA_DIR (.data), if it is running.`;

class UsageError extends Error {}

function projectorNamed(name: string | undefined) {
  const projector = allProjectors.find((p) => p.name === name);
  if (!projector) {
    throw new UsageError(
      `No projector named "${name ?? ''}". Known: ${allProjectors.map((p) => p.name).join(', ')}`,
    );
  }
  return projector;
}

/**
 * A projector, or another follower of the log that keeps a checkpoint here (the notifier's
 * dispatchers, the process managers): any of them can stop at an event and be told to skip it.
 */
async function followerNamed(pool: Pool, name: string | undefined): Promise<{ name: string }> {
  if (allProjectors.some((p) => p.name === name)) return projectorNamed(name);
  const followers = [...new Set((await readBuilds(pool)).map((row) => row.name))];
  if (name !== undefined && followers.includes(name)) return { name };
  const known = [...new Set([...allProjectors.map((p) => p.name), ...followers])];
  throw new UsageError(`No projector named "${name ?? ''}". Known: ${known.join(', ')}`);
}

function option(args: string[], flag: string): string | undefined {
  const index = args.indexOf(flag);
  return index >= 0 ? args[index + 1] : undefined;
}

/** Arguments each command takes besides its options (NAME, BUILD, POSITION). */
const positionals: Record<string, number> = {
  status: 0,
  rebuild: 1,
  switch: 1,
  retire: 2,
  skip: 2,
};

/**
 * The first argument `command` does not take, or null. A mistyped option is refused rather than
 * passed over: `rebuild NAME --manual-swich` would otherwise switch reads the moment it caught up.
 */
function unexpectedArgument(command: string, rest: string[]): string | null {
  let seen = 0;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (command === 'rebuild' && arg === '--manual-switch') continue;
    // Its value is checked in main.
    if (command === 'rebuild' && arg === '--page-size') i += 1;
    else if (arg.startsWith('--') || seen === positionals[command]) return arg;
    else seen += 1;
  }
  return null;
}

/** The arguments besides the command's options, wherever the options stand among them. */
function positionalArguments(rest: string[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--page-size') i += 1;
    else if (!arg.startsWith('--')) found.push(arg);
  }
  return found;
}

function showProgress(progress: RebuildProgress): void {
  const line = formatProgress(progress);
  if (process.stdout.isTTY) process.stdout.write(`\r${line}\x1b[K${progress.done ? '\n' : ''}`);
  else if (progress.done) console.log(line);
  else process.stdout.write(`${line}\n`);
}

async function main(args: string[]): Promise<number> {
  const [command] = args;
  // Options may stand anywhere: `rebuild --manual-switch bets` as well as `rebuild bets --manual-switch`.
  const [name, third] = positionalArguments(args.slice(1));
  if (
    asksForHelp(args) ||
    !['status', 'rebuild', 'switch', 'retire', 'skip'].includes(command ?? '')
  ) {
    return showUsage(usage, args);
  }
  const unexpected = unexpectedArgument(command!, args.slice(1));
  if (unexpected !== null) {
    console.error(`${command} does not take "${unexpected}". See --help.`);
    return 2;
  }
  const pageSize = Number(args.includes('--page-size') ? option(args, '--page-size') : 10_000);
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    console.error('Bad --page-size');
    return 2;
  }
  const config = loadConfig();
  // A rebuild yields the cores to the services (decision 36), from a session of its own where the
  // kernel weighs sessions against each other. That process finds the database itself, and says
  // once which it uses.
  const lowering = command === 'rebuild' && config.REBUILD_NICE > 0;
  const ownSession = runsInRebuildSession();
  if (lowering && process.platform === 'linux' && !ownSession) return rebuildInSessionOfItsOwn();
  if (ownSession) endWithCommandLine();
  const databaseUrl = await operatorDatabaseUrl(config);
  if (!databaseUrl) return 2;
  const logger = terminalLogger(
    config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL,
    { service: 'projections-cli' },
    config.LOG_FORMAT,
  );
  const pool = createPool(databaseUrl, 4);
  // Before the pool's first connection.
  const priority = lowering
    ? await lowerRebuildPriority(pool, config.REBUILD_NICE, { ownSession })
    : null;
  const store = createEventStore(config, pool, databaseUrl);
  try {
    switch (command) {
      case 'status': {
        const dropped = await dropExpiredBuilds(pool, DEFAULT_RETIRED_GRACE_MS);
        console.log(formatStatus(await projectionStatus(pool, store, allProjectors)));
        for (const line of formatDropped(dropped, DEFAULT_RETIRED_GRACE_MS)) console.log(line);
        return 0;
      }
      case 'rebuild': {
        const projector = projectorNamed(name);
        if (priority?.lowered) {
          console.log(`Rebuilding at nice ${priority.nice}, below the services (REBUILD_NICE).`);
        } else if (priority) {
          console.log(`Rebuilding at the usual CPU priority: ${priority.reason}.`);
        }
        let interrupt: () => void = () => undefined;
        const interrupted = new Promise<void>((resolve) => (interrupt = resolve));
        process.once('SIGINT', interrupt);
        process.once('SIGTERM', interrupt);
        const result = await rebuildProjector(projector, {
          pool,
          store,
          connectionString: databaseUrl,
          logger,
          onProgress: showProgress,
          interrupted,
          pageSize,
          manualSwitch: args.includes('--manual-switch'),
          ...(priority?.lowered ? { backendNice: priority.nice } : {}),
        });
        const what = result.resumed
          ? 'resumed from its checkpoint'
          : 'built from the start of the log';
        if (result.outcome === 'interrupted') {
          console.log(
            `\nInterrupted: ${projector.name} build ${result.build} keeps its checkpoint; run rebuild again to resume it.`,
          );
          return 130;
        }
        console.log(
          result.outcome === 'switched'
            ? `${projector.name} build ${result.build}, ${what}, is live: reads switched to it.`
            : `${projector.name} build ${result.build}, ${what}, has caught up; switch reads with: switch ${projector.name}`,
        );
        return 0;
      }
      case 'switch': {
        const projector = projectorNamed(name);
        const build = await switchProjector(pool, store, projector);
        console.log(`${projector.name} build ${build} is live: reads switched to it.`);
        return 0;
      }
      case 'retire': {
        const projector = projectorNamed(name);
        const build = Number(third);
        if (!Number.isInteger(build)) throw new UsageError('retire NAME BUILD: BUILD is a number');
        await retireBuild(pool, projector.name, build);
        console.log(`${projector.name} build ${build} dropped.`);
        return 0;
      }
      default: {
        const projector = await followerNamed(pool, name);
        if (!third || !isGlobalPosition(third))
          throw new UsageError('skip NAME POSITION: POSITION as status shows it, e.g. 1234-5678');
        const build = await skipEvent(pool, store, projector, third);
        console.log(
          `${projector.name} passes over event ${build.errorEventId ?? ''} at ${third}; recorded in the log.`,
        );
        return 0;
      }
    }
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(error.message);
      return 2;
    }
    if (error instanceof BuildRefused) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await store.close();
    await pool.end();
  }
}

/**
 * What went wrong with the database, in a line an operator acts on (a server not running, a wrong
 * DATABASE_URL), rather than a stack trace; null for anything else, which is a bug.
 */
function databaseProblem(error: unknown): string | null {
  if (isDatabaseUnavailable(error)) {
    const reason = error instanceof Error ? error.message : String(error);
    return `The database cannot be reached (${reason}): is it running, and is DATABASE_URL right?`;
  }
  if (error instanceof pg.DatabaseError)
    return `The database refused: ${error.message}. Is DATABASE_URL the database the services use?`;
  return null;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : (databaseProblem(error) ?? error));
    process.exit(1);
  },
);
