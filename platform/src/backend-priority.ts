import { readFile, writeFile } from 'node:fs/promises';
import { Socket } from 'node:net';
import os from 'node:os';
import type pg from 'pg';
import type { Logger } from './logger.ts';

/** What became of lowering one connection's backend (decision 35). */
export type BackendPriorityOutcome =
  | { lowered: true; pid: number }
  /** The server is not on this host, not visible from it, or refused; why, in a few words. */
  | { lowered: false; pid: number | null; reason: string };

export interface BackendPriorityOptions {
  /** How much lower than its peers a backend runs: a nice value from 1 (a little) to 19 (least). */
  nice: number;
  /** Hears what happened to each connection, once it is known. */
  onOutcome?: (outcome: BackendPriorityOutcome) => void;
}

/** Linux refuses an autogroup's nice more often than every 100 ms to all but CAP_SYS_ADMIN. */
const AUTOGROUP_RETRY_MS = 120;
const AUTOGROUP_TRIES = 20;

/**
 * Lowers the CPU priority of the PostgreSQL backend behind each new connection of `pool`, where
 * that server runs on this host and lets this process renice its backends (the same user, or
 * root). On two cores shared by the writers and the followers of the log, the followers' work
 * then goes first: a command waits a little longer under saturation, and a read model falls
 * less far behind (decision 35). Elsewhere (another host, a container, another user, not Linux)
 * the connection is left as it is.
 *
 * A backend is only touched once the process it names has been checked to be that connection's:
 * PostgreSQL shows each backend's client address and port in its process title, and the title
 * must name the port this connection comes from (or `[local]` for a Unix socket).
 */
export function lowerBackendPriority(pool: pg.Pool, options: BackendPriorityOptions): void {
  if (process.platform !== 'linux' || options.nice <= 0) return;
  const nice = Math.min(19, Math.round(options.nice));
  pool.on('connect', (client) => {
    void lowerConnectionPriority(client, nice).then((outcome) => options.onOutcome?.(outcome));
  });
}

/**
 * Lowers the backend behind one open connection to nice `nice`, as `lowerBackendPriority` does.
 * Never rejects: what went wrong is the outcome's reason.
 */
export function lowerConnectionPriority(
  client: pg.Client | pg.PoolClient,
  nice: number,
): Promise<BackendPriorityOutcome> {
  return lowerOne(client, nice).catch((error: unknown) => ({
    lowered: false,
    pid: null,
    reason: error instanceof Error ? error.message : String(error),
  }));
}

async function lowerOne(
  client: pg.Client | pg.PoolClient,
  nice: number,
): Promise<BackendPriorityOutcome> {
  // The server names its backend's pid when a connection starts (the key it cancels queries
  // by), and this end of the connection knows its own port: no query is needed for either.
  const pid = (client as { processID?: unknown }).processID;
  if (typeof pid !== 'number') return { lowered: false, pid: null, reason: 'no backend pid' };
  const socket = client.connection.stream;
  const port = socket instanceof Socket && socket.localPort !== undefined ? socket.localPort : null;
  let title: string;
  try {
    title = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).replaceAll('\0', ' ');
  } catch {
    return { lowered: false, pid, reason: 'the backend is not a process of this host' };
  }
  if (!title.includes(port === null ? '[local]' : `(${port})`)) {
    return { lowered: false, pid, reason: 'the process of that pid is not this connection' };
  }
  try {
    // Its nice among the tasks of its group, where the kernel groups by cgroup alone...
    os.setPriority(pid, nice);
  } catch (error) {
    return { lowered: false, pid, reason: describe(error) };
  }
  // ...and its group's, where the kernel groups each session of the root cgroup on its own
  // (autogroup): every backend starts a session, so there its own nice weighs nothing.
  const refused = await lowerAutogroup(pid, nice);
  return refused === null ? { lowered: true, pid } : { lowered: false, pid, reason: refused };
}

/** Sets the nice value of process `pid`'s autogroup: null once done (or where there are none), else why not. */
async function lowerAutogroup(pid: number, nice: number): Promise<string | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      await writeFile(`/proc/${pid}/autogroup`, String(nice));
      return null;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return null; // no autogroups on this kernel
      if (code !== 'EAGAIN' || attempt >= AUTOGROUP_TRIES) return describe(error);
      await new Promise((resolve) => setTimeout(resolve, AUTOGROUP_RETRY_MS));
    }
  }
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ?? (error instanceof Error ? error.message : String(error));
}

/**
 * The pool appends go through, lowered as `APPEND_NICE` says, with one log line for the first
 * backend lowered and one for the first left as it was (and why).
 */
export function lowerAppendPriority(
  pool: pg.Pool,
  nice: number,
  logger: Pick<Logger, 'info'>,
): void {
  const told = new Set<boolean>();
  lowerBackendPriority(pool, {
    nice,
    onOutcome: (outcome) => {
      if (told.has(outcome.lowered)) return;
      told.add(outcome.lowered);
      if (outcome.lowered) {
        logger.info({ nice }, 'appends run at a lower CPU priority than the followers');
      } else {
        logger.info({ reason: outcome.reason }, 'appends run at the usual CPU priority');
      }
    },
  });
}

/** What `lowerRebuildPriority` did: the nice value the rebuild runs at, or why it runs as usual. */
export type RebuildPriority = { lowered: true; nice: number } | { lowered: false; reason: string };

/**
 * Runs a rebuild below the services (decision 36): this process and the backend behind each new
 * connection of `pool` at nice `nice`, so a bulk load takes the cores the live followers and
 * commands leave, and all of them when they leave all. Call it before `pool` connects; the
 * build's own connection is lowered by its runner (`backendNice`). This process's autogroup is
 * lowered only where it leads a session of its own (`ownSession`): otherwise it is the session
 * of the operator's terminal, which would keep the lower weight after the rebuild.
 */
export async function lowerRebuildPriority(
  pool: pg.Pool,
  nice: number,
  options: { ownSession: boolean },
): Promise<RebuildPriority> {
  if (nice <= 0) return { lowered: false, reason: 'REBUILD_NICE is 0' };
  if (process.platform !== 'linux') return { lowered: false, reason: 'not Linux' };
  const level = Math.min(19, Math.round(nice));
  try {
    // Never raised: a process already lower (`nice npm run ...`) stays where it is.
    if (os.getPriority(process.pid) < level) os.setPriority(process.pid, level);
  } catch (error) {
    return { lowered: false, reason: describe(error) };
  }
  lowerBackendPriority(pool, { nice: level });
  if (options.ownSession) {
    const refused = await lowerAutogroup(process.pid, level);
    if (refused !== null) return { lowered: false, reason: refused };
  }
  return { lowered: true, nice: level };
}
