import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { SCHED_BATCH, SCHED_OTHER, schedulingPolicy } from '@wagers/test-support/process-stat';
import { startEmbeddedPostgres, type RunningDependency } from './embedded.ts';
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
  let server: RunningDependency | null = null;
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

  it('serves its connections from backends under SCHED_BATCH (decision 31)', async () => {
    server = await startEmbeddedPostgres(await scratchDir(), createLogger('silent'));
    expect(await backendPolicy(server.url)).toBe(SCHED_BATCH);
  });

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
    server = await startEmbeddedPostgres(await scratchDir(), createLogger('silent'));
    expect(await backendPolicy(server.url)).toBe(SCHED_OTHER);
  });
});
