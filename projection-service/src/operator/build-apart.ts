import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { environmentWith, type Config } from '@wagers/platform/config';
import type { Logger } from '@wagers/platform/logger';
import type { BuildApart, BuildApartProcess } from '@wagers/platform/projections/runner';

const cli = fileURLToPath(new URL('../cli.ts', import.meta.url));

/** How long a build's own process has to stop at its checkpoint before it is killed. */
const STOP_GRACE_MS = 10_000;

/**
 * A service's large new builds loaded by the operator's rebuild command, run as a process of its
 * own (`projections rebuild NAME`, which resumes the build under way): it runs below the services
 * at `REBUILD_NICE` (decision 36), and its folding and garbage collection stay off the service's
 * thread. It reaches the service's database and log, whatever the service's environment says.
 */
export function buildApart(
  config: Pick<
    Config,
    'BUILD_APART_EVENTS' | 'EVENT_STORE' | 'EVENTSTORE_URL' | 'REBUILD_NICE' | 'LOG_FORMAT'
  >,
  databaseUrl: string,
  logger: Logger,
  { pageSize }: { pageSize?: number } = {},
): BuildApart | undefined {
  if (config.BUILD_APART_EVENTS <= 0) return undefined;
  const env = environmentWith({
    DATABASE_URL: databaseUrl,
    EVENT_STORE: config.EVENT_STORE,
    EVENTSTORE_URL: config.EVENTSTORE_URL,
    REBUILD_NICE: String(config.REBUILD_NICE),
    LOG_LEVEL: 'warn',
    LOG_FORMAT: config.LOG_FORMAT,
  });
  return {
    minEvents: config.BUILD_APART_EVENTS,
    start(name: string): BuildApartProcess {
      const log = logger.child({ projector: name, part: 'build-apart' });
      const args = [cli, 'rebuild', name, ...(pageSize ? ['--page-size', String(pageSize)] : [])];
      const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      // What it prints (a progress line a second where no terminal reads it) is kept to its last
      // lines, and logged when it ends: `projections status` and /metrics show the progress.
      const lines: string[] = [];
      const keep = (chunk: Buffer) => {
        for (const line of chunk.toString().split('\n')) {
          if (line.trim()) lines.push(line.trim());
        }
        lines.splice(0, Math.max(0, lines.length - 5));
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      const ended = new Promise<number | null>((resolve) => {
        child.once('error', (error) => {
          log.warn({ err: error }, "could not start the build's own process");
          resolve(-1);
        });
        child.once('exit', (code) => {
          log.info({ pid: child.pid, code, output: lines }, "the build's own process ended");
          resolve(code);
        });
      });
      log.info({ pid: child.pid }, "the build's own process started");
      return {
        ended,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
          await ended;
          clearTimeout(timer);
        },
      };
    },
  };
}
