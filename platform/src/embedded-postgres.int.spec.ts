import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { SCHED_BATCH, SCHED_OTHER, schedulingPolicy } from '@wagers/test-support/process-stat';
import { startEmbeddedPostgres, type RunningServer } from './embedded.ts';
import { createLogger } from './logger.ts';

/** The policy of the backend that serves a new connection to `url`. */
async function backendPolicy(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return await schedulingPolicy(rows[0]!.pid);
  } finally {
    await client.end();
  }
}

describe.runIf(process.platform === 'linux')('the embedded PostgreSQL that npm start runs', () => {
  const dirs: string[] = [];
  let server: RunningServer | null = null;
  const path0 = process.env.PATH;

  async function scratchDir(): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'wagers-embedded-postgres-'));
    dirs.push(dir);
    return dir;
  }

  afterEach(async () => {
    process.env.PATH = path0;
    await server?.stop();
    server = null;
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('serves its connections from backends under SCHED_BATCH when asked (decision 31), and under the default policy otherwise (decision 35)', async () => {
    server = await startEmbeddedPostgres(await scratchDir(), createLogger('silent'), {
      batch: true,
    });
    expect(await backendPolicy(server.url)).toBe(SCHED_BATCH);
    await server.stop();
    server = await startEmbeddedPostgres(await scratchDir(), createLogger('silent'), {
      batch: false,
    });
    expect(await backendPolicy(server.url)).toBe(SCHED_OTHER);
  });

  it('starts again on the port it had, so that its clients reach it again at the same address', async () => {
    const dir = await scratchDir();
    const logger = createLogger('silent');
    server = await startEmbeddedPostgres(dir, logger, { batch: false });
    const first = server.url;
    await server.stop();
    server = await startEmbeddedPostgres(dir, logger, { batch: false });
    expect(server.url).toBe(first);
    expect(await backendPolicy(server.url)).not.toBeNull();
  }, 180_000);

  it('lets a process that started and stopped it end of itself, exit code 0', async () => {
    // A bench or a script on the embedded server: it ends when its work is done, without
    // process.exit, and nothing left behind by embedded-postgres may fail that.
    const here = path.dirname(fileURLToPath(import.meta.url));
    const script = `
      import { startEmbeddedPostgres } from ${JSON.stringify(path.join(here, 'embedded.ts'))};
      import { createLogger } from ${JSON.stringify(path.join(here, 'logger.ts'))};
      const server = await startEmbeddedPostgres(process.argv[1], createLogger('silent'), { batch: false });
      await server.stop();
      console.log('stopped');`;
    const ended = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script, await scratchDir()],
      { timeout: 60_000 },
    ).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({
        code: error.code,
        stdout: error.stdout,
        stderr: error.stderr,
      }),
    );
    expect(ended).toEqual({ code: 0, stdout: 'stopped\n', stderr: '' });
  }, 180_000);

  it('is started again on the same address when it dies, with what was committed, and says that it died', async () => {
    const entries: { level: number; msg: string; signal?: string; said?: string }[] = [];
    const logger = createLogger(
      'info',
      {},
      {
        write: (line: string) => void entries.push(JSON.parse(line) as (typeof entries)[number]),
      },
    );
    const running = await startEmbeddedPostgres(await scratchDir(), logger, { batch: false });
    server = running;
    const pool = new pg.Pool({ connectionString: running.url, max: 2 });
    pool.on('error', () => undefined);
    try {
      await pool.query('CREATE TABLE kept (n int)');
      await pool.query('INSERT INTO kept VALUES (1)');
      const first = running.pid();
      process.kill(first!, 'SIGKILL');
      const sleep = () => new Promise((resolve) => setTimeout(resolve, 100));
      for (let i = 0; i < 300 && running.pid() === first; i++) await sleep();
      expect(running.pid()).not.toBe(first);
      // Connections to the server that died fail; new ones reach the same address, once it has
      // recovered.
      let rows: unknown[] | null = null;
      for (let i = 0; i < 300 && !rows; i++) {
        rows = await pool.query<{ n: number }>('SELECT n FROM kept').then(
          (result) => result.rows,
          () => null,
        );
        if (!rows) await sleep();
      }
      expect(rows).toEqual([{ n: 1 }]);
      expect(entries).toContainEqual(
        expect.objectContaining({
          level: 50,
          msg: 'the embedded PostgreSQL exited; starting it again',
          signal: 'SIGKILL',
        }),
      );
      expect(entries).toContainEqual(
        expect.objectContaining({ level: 30, msg: 'the embedded PostgreSQL is running again' }),
      );
    } finally {
      await pool.end();
    }
  }, 120_000);

  it('starts under the default policy where the policy cannot be set', async () => {
    // A stand-in for a `chrt` that the system refuses (a container whose seccomp profile denies
    // sched_setscheduler): it says so the way util-linux's does, and exits without starting.
    const bin = await scratchDir();
    await writeFile(
      path.join(bin, 'chrt'),
      '#!/bin/sh\necho "chrt: failed to set pid 0\'s policy: Operation not permitted" >&2\nexit 1\n',
    );
    await chmod(bin, 0o755);
    await chmod(path.join(bin, 'chrt'), 0o755);
    process.env.PATH = `${bin}${path.delimiter}${path0 ?? ''}`;
    server = await startEmbeddedPostgres(await scratchDir(), createLogger('silent'), {
      batch: true,
    });
    expect(await backendPolicy(server.url)).toBe(SCHED_OTHER);
  });
});
