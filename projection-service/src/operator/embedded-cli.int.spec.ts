import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type RunningDependency } from '@wagers/platform/embedded';
import { limitMigrations } from '@wagers/platform/limits/migrations';
import { createLogger } from '@wagers/platform/logger';
import { migrate, platformMigrations } from '@wagers/platform/migrations';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { readModelMigrations } from '../migrations.ts';
import { allProjectors } from '../projectors.ts';

const cli = fileURLToPath(new URL('../cli.ts', import.meta.url));
const auditorsCli = fileURLToPath(
  new URL('../../../command-service/src/audit/auditors-cli.ts', import.meta.url),
);
const auditCli = fileURLToPath(
  new URL('../../../command-service/src/audit/audit-cli.ts', import.meta.url),
);

/** The projections CLI as an operator runs it beside `npm start`: no DATABASE_URL. */
function projections(dataDir: string, args: string[]) {
  return operatorCommand(cli, dataDir, args);
}

/** An operator's command line run beside `npm start`: no DATABASE_URL, unless given one. */
function operatorCommand(script: string, dataDir: string, args: string[], databaseUrl?: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', script, ...args],
      { env, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A data folder of its own, so that a developer's `.data` is never read or touched. */
function scratchDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'wagers-embedded-cli-'));
}

describe('the projections CLI beside the PostgreSQL that npm start runs', () => {
  let dataDir: string;
  let server: RunningDependency;
  let password: string;

  beforeAll(async () => {
    dataDir = await scratchDir();
    server = await startEmbeddedPostgres(dataDir, createLogger('silent'), { batch: false });
    // What the product does next at start: bring the database up to date.
    await migrate(server.url, [platformMigrations, limitMigrations, readModelMigrations]);
    password = (await readFile(path.join(dataDir, 'postgres.secret'), 'utf8')).trim();
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('shows the status of every projector without DATABASE_URL, and never the password', async () => {
    const run = await projections(dataDir, ['status']);
    expect(run.stderr).toContain(`Using the embedded PostgreSQL under ${dataDir}`);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('head of the log');
    for (const projector of allProjectors) expect(run.stdout).toContain(projector.name);
    expect(run.stdout + run.stderr).not.toContain(password);
    expect(run.stdout + run.stderr).not.toContain(encodeURIComponent(password));
  });

  it('serves the auditors command line the same way', async () => {
    const run = await operatorCommand(auditorsCli, dataDir, ['grant', 'nobody@example.com']);
    expect(run.stderr).toContain(`Using the embedded PostgreSQL under ${dataDir}`);
    // It reached the log: there it found no account for the address.
    expect(run.stderr).toContain('No account signs in with nobody@example.com.');
    expect(run.code).toBe(1);
  });
});

describe('the projections CLI with neither DATABASE_URL nor a running embedded PostgreSQL', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  function expectHelp(run: { code: number; stdout: string; stderr: string }, dataDir: string) {
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      `DATABASE_URL is not set, and no embedded PostgreSQL is running under ${path.join(dataDir, 'postgres')}`,
    );
    expect(run.stderr).toContain('Start the product with `npm start`');
    expect(run.stderr).toContain('or set DATABASE_URL');
  }

  it('says to start the product or set DATABASE_URL when none was ever started', async () => {
    const dataDir = await scratchDir();
    dirs.push(dataDir);
    expectHelp(await projections(dataDir, ['status']), dataDir);
  });

  it('has audit verify exit 3, could not check, never 1 (tampered) or 2 (asked wrongly)', async () => {
    const dataDir = await scratchDir();
    dirs.push(dataDir);
    const run = await operatorCommand(auditCli, dataDir, ['verify']);
    expectHelp(run, dataDir);
    expect(run.code).toBe(3);
  });

  it('refuses a mistyped option before it looks for a database, rather than pass over it', async () => {
    const dataDir = await scratchDir();
    dirs.push(dataDir);
    // Passed over, it would switch reads to the build the moment it caught up.
    const mistyped = await projections(dataDir, ['rebuild', 'bets', '--manaul-switch']);
    expect(mistyped).toMatchObject({
      code: 2,
      stderr: 'rebuild does not take "--manaul-switch". See --help.\n',
    });
    const noSize = await projections(dataDir, ['rebuild', 'bets', '--page-size']);
    expect(noSize).toMatchObject({ code: 2, stderr: 'Bad --page-size\n' });
    const extra = await projections(dataDir, ['retire', 'bets', '3', '4']);
    expect(extra).toMatchObject({ code: 2, stderr: 'retire does not take "4". See --help.\n' });
  });

  it('does the same when the server that wrote postmaster.pid is gone', async () => {
    const dataDir = await scratchDir();
    dirs.push(dataDir);
    // A process that has exited: its pid names no one now, as after a crash.
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('exit', resolve));
    await mkdir(path.join(dataDir, 'postgres'));
    await writeFile(
      path.join(dataDir, 'postgres', 'postmaster.pid'),
      `${gone.pid}\n${dataDir}/postgres\n1795409666\n5432\n${dataDir}\n127.0.0.1\n  1  1\nready   \n`,
    );
    await writeFile(path.join(dataDir, 'postgres.secret'), 'not-used\n');
    expectHelp(await projections(dataDir, ['status']), dataDir);
  });
});

describe('the projections CLI with a DATABASE_URL that leads to no database of the services', () => {
  let dataDir: string;
  let empty: TestDatabase;
  beforeAll(async () => {
    dataDir = await scratchDir();
    empty = await createTestDatabase();
  });
  afterAll(async () => {
    await empty?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** One line that says what is wrong, and no stack trace. */
  function expectOneLine(run: { code: number; stdout: string; stderr: string }, says: string) {
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(says);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  }

  it('says a server that refuses the connection cannot be reached', async () => {
    // A port nobody listens on: taken, then let go.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const run = await operatorCommand(
      cli,
      dataDir,
      ['status'],
      `postgres://postgres@127.0.0.1:${port}/wagers`,
    );
    expectOneLine(run, `The database cannot be reached (connect ECONNREFUSED 127.0.0.1:${port})`);
  });

  it('says what the server refused in a database the services never used', async () => {
    const run = await operatorCommand(cli, dataDir, ['rebuild', 'bets'], empty.url);
    expectOneLine(
      run,
      'The database refused: relation "projection_checkpoints" does not exist. Is DATABASE_URL the database the services use?',
    );
  });
});
