import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@wagers/platform/embedded';

/** The repository's root, where a person types `npm start`. */
const root = fileURLToPath(new URL('../..', import.meta.url));

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `npm start` on embedded defaults (no DATABASE_URL, no REDIS_URL) in a process group of its own,
 * as a terminal runs it: npm, and the product's own process under it (the script `exec`s it).
 * `settings` adds to its environment.
 */
function launch(dataDir: string, port: number, settings: Record<string, string> = {}): Started {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    ...settings,
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child = spawn('npm', ['start'], {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

/** `launch`, then wait until it answers /healthz. */
async function startProduct(dataDir: string, port: number): Promise<Started> {
  const started = launch(dataDir, port);
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (await isUp(port)) return started;
    if (started.child.exitCode !== null || Date.now() > deadline) {
      started.child.kill('SIGKILL');
      throw new Error(`the product did not start:\n${started.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function isUp(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/healthz`).then(
    (response) => response.ok,
    () => false,
  );
}

/** Stops the product by SIGTERM and expects it to exit 0. */
async function stopProduct(started: Started): Promise<void> {
  started.child.kill('SIGTERM');
  expect((await started.exited).code).toBe(0);
}

/** The log lines at warn or worse (pino's levels: 40 warn, 50 error, 60 fatal). */
function complaints(output: string): string[] {
  return output.split('\n').filter((line) => {
    if (!line.startsWith('{')) return false;
    const { level } = JSON.parse(line) as { level?: number };
    return (level ?? 0) >= 40;
  });
}

/** The embedded PostgreSQL's port, from the pid file its postmaster keeps while it runs. */
async function postgresPort(dataDir: string): Promise<number> {
  return Number((await readFile(postmasterPidFile(dataDir), 'utf8')).split('\n')[3]);
}

const postmasterPidFile = (dataDir: string) => path.join(dataDir, 'postgres', 'postmaster.pid');

async function postmasterPid(dataDir: string): Promise<number> {
  return Number((await readFile(postmasterPidFile(dataDir), 'utf8')).split('\n')[0]);
}

/** The embedded redis-server's port, as the product logged it at start. */
function redisPort(output: string): number {
  const line = output.split('\n').find((entry) => entry.includes('redis-server from the PATH'));
  if (!line) throw new Error(`no embedded Redis in the output:\n${output}`);
  return Number((JSON.parse(line) as { port: string }).port);
}

/** A process's state letter as Linux gives it (R, S, Z for one exited but not yet reaped...). */
async function processState(pid: number): Promise<string | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat ? (stat.slice(stat.lastIndexOf(')') + 2)[0] ?? null) : null;
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('npm start on embedded defaults, stopped and started again', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'wagers-stop-'));
  });
  afterAll(async () => {
    // Should a test fail halfway, no server of the scratch folder outlives the run.
    for (const pidFile of [postmasterPidFile(dataDir), path.join(dataDir, 'redis', 'redis.pid')]) {
      const pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).split('\n')[0]);
      try {
        if (pid > 0) process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already: a clean stop leaves no pid file, a killed server a stale one.
      }
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  for (const [how, signal, group] of [
    ['Ctrl-C in its terminal (SIGINT to the whole process group)', 'SIGINT', true],
    // npm passes it on to the script's process, which the script `exec`s: the product itself.
    // Through a shell in between, npm would exit 143 at once and leave the product running.
    ['SIGTERM to npm alone, as a process manager or `docker stop` sends it', 'SIGTERM', false],
  ] as const) {
    it(`on ${how}: exit 0, nothing logged at warn or worse, its PostgreSQL and Redis stopped`, async () => {
      const started = await startProduct(dataDir, await freePort());
      const postgres = await postgresPort(dataDir);
      const redis = redisPort(started.output());
      expect(await answers(postgres)).toBe(true);
      expect(await answers(redis)).toBe(true);

      process.kill(group ? -started.child.pid! : started.child.pid!, signal);
      const { code } = await started.exited;

      expect(complaints(started.output())).toEqual([]);
      expect(started.output()).toContain(`"signal":"${signal}"`);
      expect(code).toBe(0);
      // A clean shutdown of PostgreSQL removes its pid file.
      expect(existsSync(postmasterPidFile(dataDir))).toBe(false);
      expect(await answers(postgres)).toBe(false);
      expect(await answers(redis)).toBe(false);
    }, 240_000);
  }

  /**
   * The next start on the same DATA_DIR stops the servers an earlier run left, says so, and
   * answers; `meanwhile` checks what it did before it is stopped again.
   */
  async function startsOverLeftServers(meanwhile: () => Promise<void> = async () => {}) {
    const port = await freePort();
    const next = await startProduct(dataDir, port);
    try {
      expect(
        complaints(next.output()).map((line) => (JSON.parse(line) as { msg: string }).msg),
      ).toEqual([
        'stopping the embedded PostgreSQL an earlier run left running',
        'stopping the embedded redis-server an earlier run left running',
      ]);
      await meanwhile();
      expect(await isUp(port)).toBe(true);
    } finally {
      // Stopped whatever was found, so the next case starts on a DATA_DIR nobody runs on.
      await stopProduct(next);
    }
  }

  it('after the product is killed (SIGKILL), the next start stops the servers it left and starts', async () => {
    const killed = await startProduct(dataDir, await freePort());
    const postgres = await postgresPort(dataDir);
    const postgresPid = await postmasterPid(dataDir);
    const redis = redisPort(killed.output());
    // Every process of the group: npm and the product. The servers have groups of their own.
    process.kill(-killed.child.pid!, 'SIGKILL');
    await killed.exited;
    // Left running: nothing stopped them.
    expect(await answers(postgres)).toBe(true);
    expect(await answers(redis)).toBe(true);

    await startsOverLeftServers(async () => {
      // The server left behind is gone, and its successor took its address again: a client of
      // the old one (an operator's rebuild) reaches the new one where it was.
      // Gone, or exited and not yet reaped by the system's init (which may take its time).
      expect([null, 'Z']).toContain(await processState(postgresPid));
      expect(await postgresPort(dataDir)).toBe(postgres);
      expect(await answers(redis)).toBe(false);
    });
  }, 360_000);

  it('after the product is killed and not yet reaped (its npm held), the next start still takes over', async () => {
    const killed = await startProduct(dataDir, await freePort());
    const postgres = await postgresPort(dataDir);
    // The product's own process, as it recorded itself owner of the servers it started.
    const product = Number((await readFile(path.join(dataDir, 'postgres.owner'), 'utf8')).trim());
    // npm held, the product killed: the product has exited, but stays a zombie until npm reaps
    // it, as it does for a moment when a product killed with its npm waits for the system's init.
    process.kill(killed.child.pid!, 'SIGSTOP');
    try {
      process.kill(product, 'SIGKILL');
      await expect.poll(() => processState(product), { timeout: 10_000 }).toBe('Z');
      expect(await answers(postgres)).toBe(true);

      await startsOverLeftServers();
    } finally {
      process.kill(-killed.child.pid!, 'SIGKILL');
      process.kill(killed.child.pid!, 'SIGCONT');
      await killed.exited;
    }
  }, 360_000);

  it('says in one line, naming it, that a DATA_DIR it cannot make cannot be used', async () => {
    // A file where a folder would have to be.
    const file = path.join(dataDir, 'not-a-folder');
    await writeFile(file, '');
    const started = launch(path.join(file, 'data'), await freePort());
    const { code } = await started.exited;
    expect(code).toBe(2);
    expect(started.output()).toContain(`DATA_DIR ${path.join(file, 'data')} cannot be used`);
    expect(started.output()).not.toMatch(/^\s+at /m);
  }, 120_000);

  it('says so as promptly for a DATA_DIR under /proc, where no folder can be made', async () => {
    // Node's recursive mkdir never returns there: refused, it makes the parent again and retries.
    const place = '/proc/wagers/data';
    const started = launch(place, await freePort());
    const outcome = await Promise.race([started.exited, delay(30_000, null)]);
    if (outcome === null) process.kill(-started.child.pid!, 'SIGKILL');
    expect(outcome?.code).toBe(2);
    expect(started.output()).toContain(`DATA_DIR ${place} cannot be used`);
    expect(started.output()).not.toMatch(/^\s+at /m);
  }, 120_000);

  it('says as promptly, naming it, that an AVATAR_DIR under /proc cannot be used, and stops its servers', async () => {
    // Made at start, as DATA_DIR is: not at the first upload, where a recursive mkdir never returns.
    const place = '/proc/wagers/avatars';
    const started = launch(dataDir, await freePort(), { AVATAR_DIR: place });
    const outcome = await Promise.race([started.exited, delay(90_000, null)]);
    if (outcome === null) {
      // It started: stopped as a person would, so the next case finds no server of it left.
      process.kill(-started.child.pid!, 'SIGINT');
      await started.exited;
    }
    expect(outcome?.code).toBe(2);
    expect(started.output()).toContain(`AVATAR_DIR ${place} cannot be used`);
    expect(started.output()).not.toMatch(/^\s+at /m);
    // The PostgreSQL it had started is stopped cleanly: its pid file is gone.
    expect(existsSync(postmasterPidFile(dataDir))).toBe(false);
  }, 240_000);

  it('refuses a second start on the same DATA_DIR while the first runs, and leaves the first be', async () => {
    const firstPort = await freePort();
    const first = await startProduct(dataDir, firstPort);
    const portFile = path.join(dataDir, 'postgres.port');
    const address = await readFile(portFile, 'utf8');
    const second = launch(dataDir, await freePort());
    const { code } = await second.exited;
    expect(code).toBe(2);
    // The refused start leaves the running server's address as it was.
    expect(await readFile(portFile, 'utf8')).toBe(address);
    expect(second.output()).toContain(
      `The embedded PostgreSQL under ${dataDir} is already running`,
    );
    expect(second.output()).toContain('give this one a DATA_DIR of its own');
    expect(await isUp(firstPort)).toBe(true);
    await stopProduct(first);
  }, 360_000);
});
