import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { createPool } from '@wagers/platform/db';
import { migrate, platformMigrations } from '@wagers/platform/migrations';
import { readBuilds } from '@wagers/platform/projections/checkpoints';
import { READ_MODEL_CONNECTION } from '@wagers/platform/projections/runner';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { autogroupNice, mayRenice, processStat } from '@wagers/test-support/process-stat';
import { readModelMigrations } from '../migrations.ts';
import { writeBetLog } from '../test-support/bet-log.ts';

const cli = fileURLToPath(new URL('../cli.ts', import.meta.url));

let db: TestDatabase;
let pool: pg.Pool;

/** A process's nice value (field 19 of /proc/PID/stat). */
const niceOf = async (pid: number) => (await processStat(pid))?.field(19) ?? null;

/** The processes whose parent is `pid`, with the session each is in (fields 4 and 6 of their stat). */
async function childrenOf(pid: number): Promise<{ pid: number; session: number }[]> {
  const processes = await Promise.all(
    readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map(async (entry) => ({ pid: Number(entry), stat: await processStat(entry) })),
  );
  return processes
    .filter(({ stat }) => stat?.field(4) === pid)
    .map(({ pid: child, stat }) => ({ pid: child, session: stat!.field(6) }));
}

/** The backends of the test's database other than `known`, with the last statement each ran. */
async function backendsBesides(known: Set<number>) {
  const { rows } = await pool.query<{ pid: number; application_name: string; query: string }>(
    `SELECT pid, application_name, query FROM pg_stat_activity
      WHERE datname = current_database() AND backend_type = 'client backend'`,
  );
  return rows.filter((row) => !known.has(row.pid));
}

/**
 * `projections rebuild bets` with REBUILD_NICE as given, stopped at its first page after the
 * build has begun (the test holds the build's checkpoint row), looked at, then let finish.
 */
async function rebuildSeen(nice: string) {
  const holder = await pool.connect();
  const known = new Set((await backendsBesides(new Set())).map((row) => row.pid));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', cli, 'rebuild', 'bets', '--page-size', '100'],
    { env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'silent', REBUILD_NICE: nice } },
  );
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    const building = async () =>
      (await readBuilds(pool, 'bets')).find((row) => row.status === 'building' && row.events > 0);
    while (!(await building())) await new Promise((resolve) => setTimeout(resolve, 10));
    await holder.query('BEGIN');
    // For as long as the test needs it: a command line starts in seconds on a slow machine, past
    // the pool's limit on a transaction left idle.
    await holder.query('SET LOCAL idle_in_transaction_session_timeout = 0');
    await holder.query(
      `SELECT 1 FROM projection_checkpoints WHERE name = 'bets' AND status = 'building' FOR UPDATE`,
    );
    // Lowering a backend retries for a moment where the kernel limits how often it may.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const backends = await backendsBesides(known);
    const build = backends.filter((row) => row.application_name === READ_MODEL_CONNECTION);
    // The pool's connections, not the two that hear of and announce new events.
    const pooled = backends.filter(
      (row) =>
        row.application_name !== READ_MODEL_CONNECTION && !/^LISTEN|pg_notify/i.test(row.query),
    );
    // The command line runs its rebuild in a process of its own, leading a session of its own.
    const rebuilder = (await childrenOf(child.pid!)).find(
      (process) => process.session === process.pid,
    );
    const seen = {
      commandLine: await niceOf(child.pid!),
      process: rebuilder ? await niceOf(rebuilder.pid) : await niceOf(child.pid!),
      processGroup: rebuilder ? autogroupNice(rebuilder.pid) : null,
      ownSession: rebuilder !== undefined,
      build: await Promise.all(build.map((row) => niceOf(row.pid))),
      buildGroups: build.map((row) => autogroupNice(row.pid)),
      pooled: await Promise.all(pooled.map((row) => niceOf(row.pid))),
      mayRenice: [...build, ...pooled].every((row) => mayRenice(row.pid)),
    };
    await holder.query('COMMIT');
    return { seen, code: await exited, stdout };
  } finally {
    holder.release();
    child.kill('SIGKILL');
  }
}

beforeAll(async () => {
  db = await createTestDatabase();
  await migrate(db.url, [platformMigrations, readModelMigrations]);
  pool = createPool(db.url, 4);
  await writeBetLog(pool, { users: 50, bets: 1_000, writers: 4, betsPerTransaction: 5 });
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

describe.runIf(process.platform === 'linux')('an operator’s rebuild (decision 36)', () => {
  it('runs below the services: its process and its backends at REBUILD_NICE', async () => {
    const { seen, code, stdout } = await rebuildSeen('7');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Rebuilding at nice 7, below the services \(REBUILD_NICE\)\.$/m);
    expect(stdout).toMatch(/^bets build \d+, built from the start of the log, is live/m);
    expect(seen.ownSession).toBe(true);
    expect(seen.process).toBe(7);
    // Its session's weight too, where the kernel weighs sessions; the terminal's is left as it was.
    if (seen.processGroup !== null) expect(seen.processGroup).toBe(7);
    expect(seen.commandLine).toBe(0);
    expect(seen.build).toHaveLength(1);
    expect(seen.pooled.length).toBeGreaterThan(0);
    // Where this process may not renice the server's backends (another user), none is lowered.
    const lowered = seen.mayRenice ? 7 : 0;
    expect(seen.build).toEqual([lowered]);
    expect(seen.pooled.every((nice) => nice === lowered)).toBe(true);
    if (seen.buildGroups[0] !== null) expect(seen.buildGroups).toEqual([lowered]);
  }, 240_000);

  it('runs as usual with REBUILD_NICE=0', async () => {
    const { seen, code, stdout } = await rebuildSeen('0');
    expect(code).toBe(0);
    expect(stdout).not.toMatch(/^Rebuilding at/m);
    expect(seen.ownSession).toBe(false);
    expect(seen.process).toBe(0);
    expect(seen.build).toEqual([0]);
    expect(seen.pooled.every((nice) => nice === 0)).toBe(true);
  }, 240_000);
});
