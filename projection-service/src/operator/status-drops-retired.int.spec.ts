import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '@wagers/platform/db';
import { migrate, platformMigrations } from '@wagers/platform/migrations';
import { readBuilds } from '@wagers/platform/projections/checkpoints';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { readModelMigrations } from '../migrations.ts';
import { writeBetLog } from '../test-support/bet-log.ts';

const cli = fileURLToPath(new URL('../cli.ts', import.meta.url));

let db: TestDatabase;
let pool: ReturnType<typeof createPool>;

/** The projections CLI as an operator runs it, on the test's database, with no service running. */
function projections(...args: string[]) {
  return new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', cli, ...args],
      { env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'silent' }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, output: stdout + stderr });
      },
    );
  });
}

async function schemaExists(name: string): Promise<boolean> {
  const found = await pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [name]);
  return found.rowCount === 1;
}

beforeAll(async () => {
  db = await createTestDatabase();
  await migrate(db.url, [platformMigrations, readModelMigrations]);
  pool = createPool(db.url, 2);
  await writeBetLog(pool, { users: 5, bets: 20, writers: 1 });
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

describe('status with no projection service running', () => {
  it('drops the retired builds whose grace period is over, says which, and keeps the others', async () => {
    for (let i = 0; i < 2; i++) {
      const rebuilt = await projections('rebuild', 'bets');
      expect(rebuilt.code, rebuilt.output).toBe(0);
    }
    const builds = await readBuilds(pool, 'bets');
    const [first, second] = builds.filter((row) => row.status === 'retired');
    expect(first?.position).toBeNull();
    expect(second?.position).not.toBeNull();

    // The first build never applied an event: it goes at once. The second stays its 15 minutes.
    const shown = await projections('status');
    expect(shown.code, shown.output).toBe(0);
    expect(shown.output).toContain(
      `Dropped bets build ${first!.build}, retired at ${first!.retiredAt!.toISOString()}: it never applied an event.`,
    );
    expect(shown.output).not.toContain(`Dropped bets build ${second!.build}`);
    expect((await readBuilds(pool, 'bets')).map((row) => row.build)).toEqual(
      builds.filter((row) => row !== first).map((row) => row.build),
    );
    expect(await schemaExists(second!.schemaName!)).toBe(true);

    await pool.query(
      `UPDATE projection_checkpoints SET retired_at = retired_at - interval '15 minutes 1 second'
        WHERE name = 'bets' AND build = $1`,
      [second!.build],
    );
    const later = await projections('status');
    expect(later.code, later.output).toBe(0);
    expect(later.output).toMatch(
      new RegExp(
        `Dropped bets build ${second!.build}, retired at \\S+: its grace period \\(15 minutes\\) is over\\.`,
      ),
    );
    expect((await readBuilds(pool, 'bets')).map((row) => row.status)).toEqual(['live']);
    expect(await schemaExists(second!.schemaName!)).toBe(false);

    const again = await projections('status');
    expect(again.output).not.toContain('Dropped');
  });
});
