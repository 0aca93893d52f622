import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '@wagers/platform/db';
import { migrate, platformMigrations } from '@wagers/platform/migrations';
import { comparePositions } from '@wagers/contracts/position';
import { readBuilds } from '@wagers/platform/projections/checkpoints';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { startSlowProxy } from '@wagers/test-support/slow-proxy';
import { readModelMigrations } from '../migrations.ts';
import { writeBetLog } from '../test-support/bet-log.ts';

const cli = fileURLToPath(new URL('../cli.ts', import.meta.url));

let db: TestDatabase;
let pool: ReturnType<typeof createPool>;
let total: number;

/**
 * The projections CLI as its own process (node itself, so a signal reaches the rebuild), on the
 * test's database or by way of `url`.
 */
function projections(args: string[], url = db.url) {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent' },
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => stdout };
}

async function buildOf(build: number) {
  return (await readBuilds(pool, 'bets')).find((row) => row.build === build);
}

/**
 * Rows in one build's table and not in the other's, both ways, compared by value (as jsonb: a
 * `json` column has no equality, and its text may differ where its value does not).
 */
async function difference(table: string, a: string, b: string): Promise<number> {
  const rows = (schema: string) => `SELECT to_jsonb(t) FROM ${schema}.${table} t`;
  const result = await pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM (
       (${rows(a)} EXCEPT ALL ${rows(b)})
       UNION ALL
       (${rows(b)} EXCEPT ALL ${rows(a)})) d`,
  );
  return Number(result.rows[0]?.n);
}

beforeAll(async () => {
  db = await createTestDatabase();
  await migrate(db.url, [platformMigrations, readModelMigrations]);
  pool = createPool(db.url, 4);
  total = await writeBetLog(pool, { users: 50, bets: 3_000, writers: 8, betsPerTransaction: 5 });
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

describe('an interrupted rebuild', () => {
  it('killed halfway, resumes from its checkpoint and ends equal, row for row, to one built in a single pass', async () => {
    const first = projections(['rebuild', 'bets', '--page-size', '200']);
    // Killed without warning once a good part of the log is in.
    let killedAt = 0;
    while (killedAt === 0) {
      const row = (await readBuilds(pool, 'bets')).find((r) => r.status === 'building');
      if (row && row.events >= total / 3) {
        first.child.kill('SIGKILL');
        killedAt = row.events;
      } else await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await first.exited).toMatchObject({ signal: 'SIGKILL' });
    const interrupted = (await readBuilds(pool, 'bets')).find((r) => r.status === 'building')!;
    expect(interrupted.events).toBeGreaterThanOrEqual(killedAt);
    expect(interrupted.events).toBeLessThan(total);

    const again = projections(['rebuild', 'bets', '--page-size', '200']);
    expect(await again.exited).toMatchObject({ code: 0 });
    expect(again.output()).toContain(
      `bets build ${interrupted.build}, resumed from its checkpoint, is live`,
    );
    // Every event applied once over the two runs (the log's own, and the recorded rebuild request):
    // none again from the start, none missed.
    const logged = await pool.query<{ n: string }>('SELECT count(*) AS n FROM es_events');
    expect(Number(logged.rows[0]?.n)).toBe(total + 1);
    expect(await buildOf(interrupted.build)).toMatchObject({ status: 'live', events: total + 1 });

    const single = projections(['rebuild', 'bets']);
    expect(await single.exited).toMatchObject({ code: 0 });
    const reference = (await readBuilds(pool, 'bets')).find((r) => r.status === 'live')!;
    expect(reference.build).toBe(interrupted.build + 1);
    const [resumed, onePass] = [interrupted.schemaName!, reference.schemaName!];
    for (const table of ['rm_bets', 'rm_bet_history']) {
      const count = await pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${resumed}.${table}`,
      );
      expect(Number(count.rows[0]?.n)).toBe(table === 'rm_bets' ? 3_000 : 15_000);
      expect(await difference(table, resumed, onePass)).toBe(0);
    }
  }, 360_000);

  it('waits out the database going away halfway, and ends equal, row for row, to one built in a single pass', async () => {
    const proxy = await startSlowProxy(db.url);
    try {
      const rebuild = projections(['rebuild', 'bets', '--page-size', '200'], proxy.url);
      let building: Awaited<ReturnType<typeof buildOf>>;
      for (;;) {
        building = (await readBuilds(pool, 'bets')).find((r) => r.status === 'building');
        if (building && building.events >= total / 3) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // A restart of the server or a failover, as the CLI sees it: every connection cut, and
      // none to be had for a while.
      proxy.outage(true);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      proxy.outage(false);
      expect(await rebuild.exited).toMatchObject({ code: 0 });
      expect(rebuild.output()).toContain(`bets build ${building.build}, built from the start`);
      expect(await buildOf(building.build)).toMatchObject({ status: 'live', error: null });
      const single = projections(['rebuild', 'bets']);
      expect(await single.exited).toMatchObject({ code: 0 });
      const reference = (await readBuilds(pool, 'bets')).find((r) => r.status === 'live')!;
      expect(reference.build).toBe(building.build + 1);
      for (const table of ['rm_bets', 'rm_bet_history'])
        expect(await difference(table, building.schemaName!, reference.schemaName!)).toBe(0);
    } finally {
      await proxy.stop();
    }
  }, 360_000);

  it('is refused while another process is rebuilding the same projector', async () => {
    const running = projections(['rebuild', 'bets', '--page-size', '100']);
    while (!(await readBuilds(pool, 'bets')).some((r) => r.status === 'building' && r.events > 0))
      await new Promise((resolve) => setTimeout(resolve, 10));
    // Hold the build's checkpoint row, so the first rebuild waits at its next page however fast
    // the machine is, while the second one asks.
    const holder = await pool.connect();
    await holder.query('BEGIN');
    // For as long as the test needs it: a command line starts in seconds on a slow machine, past
    // the pool's limit on a transaction left idle.
    await holder.query('SET LOCAL idle_in_transaction_session_timeout = 0');
    await holder.query(
      `SELECT 1 FROM projection_checkpoints WHERE name = 'bets' AND status = 'building' FOR UPDATE`,
    );
    const second = projections(['rebuild', 'bets']);
    expect(await second.exited).toMatchObject({ code: 1 });
    expect(second.output()).toMatch(
      /^bets is already being rebuilt \(build \d+, \d+ events so far\) by another process/m,
    );
    running.child.kill('SIGINT');
    await holder.query('COMMIT');
    holder.release();
    expect(await running.exited).toMatchObject({ code: 130 });
    expect(running.output()).toMatch(
      /Interrupted: bets build \d+ keeps its checkpoint; run rebuild again to resume it\./,
    );
  }, 360_000);
});

describe('an interrupted rebuild resumed with --manual-switch', () => {
  it('leaves the switch to the operator, though the build was begun to switch by itself', async () => {
    // Options before NAME as well as after it.
    const first = projections(['rebuild', '--page-size', '100', 'bets']);
    while (!(await readBuilds(pool, 'bets')).some((r) => r.status === 'building' && r.events > 0))
      await new Promise((resolve) => setTimeout(resolve, 10));
    first.child.kill('SIGKILL');
    await first.exited;
    const building = (await readBuilds(pool, 'bets')).find((r) => r.status === 'building')!;
    expect(building).toMatchObject({ autoSwitch: true });

    const manual = projections(['rebuild', '--manual-switch', 'bets']);
    expect(await manual.exited).toMatchObject({ code: 0 });
    expect(manual.output()).toContain(
      `bets build ${building.build}, resumed from its checkpoint, has caught up; switch reads with: switch bets`,
    );
    expect(await buildOf(building.build)).toMatchObject({ status: 'building', autoSwitch: false });

    const switched = projections(['switch', 'bets']);
    expect(await switched.exited).toMatchObject({ code: 0 });
    expect(await buildOf(building.build)).toMatchObject({ status: 'live' });
  }, 360_000);
});

describe('a rebuild stopped at an event it cannot apply', () => {
  /** A proposal without its fields, as a bug might have written it: no bets projector reads it. */
  async function appendPoison() {
    const poison = await pool.query<{ at: string; id: string }>(
      `INSERT INTO es_events (stream_id, stream_revision, event_id, type, data, metadata)
       VALUES ('bet-' || gen_random_uuid(), 0, gen_random_uuid(), 'BetProposed', '{"betId": "x"}',
               '{"actorId": null, "correlationId": "c", "causationId": null,
                 "occurredAt": "2026-01-01T00:00:00.000Z", "schemaVersion": 1}')
       RETURNING transaction_id || '-' || global_position AS at, event_id AS id`,
    );
    return poison.rows[0]!;
  }

  it('run again after the event is skipped, passes over it and goes live', async () => {
    const { at, id } = await appendPoison();
    const stopped = projections(['rebuild', 'bets']);
    expect(await stopped.exited).toMatchObject({ code: 1 });
    expect(stopped.output()).toContain(`stopped at event ${at}`);

    const skip = projections(['skip', 'bets', at]);
    expect(await skip.exited).toMatchObject({ code: 0 });
    expect(skip.output()).toContain(`bets passes over event ${id} at ${at}`);
    const again = projections(['rebuild', 'bets']);
    expect(await again.exited).toMatchObject({ code: 0 });
    expect(again.output()).toMatch(/bets build (\d+), resumed from its checkpoint, is live/);
    const live = (await readBuilds(pool, 'bets')).find((row) => row.status === 'live')!;
    expect(live).toMatchObject({ error: null });
    expect(comparePositions(live.position!, at)).toBeGreaterThan(0);
  }, 360_000);

  it('while a service waits at that event, is refused, as is a switch to it, with where it stopped and how to skip it', async () => {
    const { at } = await appendPoison();
    const stopped = projections(['rebuild', 'bets']);
    expect(await stopped.exited).toMatchObject({ code: 1 });
    const build = (await readBuilds(pool, 'bets')).find((row) => row.status === 'building')!;
    expect(build).toMatchObject({ errorPosition: at });
    // A running projection service takes the build over and waits at the event, holding its lock.
    const service = await pool.connect();
    try {
      await service.query('SELECT pg_advisory_lock(hashtext($1))', [
        `projector:bets:${build.build}`,
      ]);
      const again = projections(['rebuild', 'bets']);
      expect(await again.exited).toMatchObject({ code: 1 });
      expect(again.output()).toContain(`bets build ${build.build} stopped at event ${at}: `);
      expect(again.output()).toContain(`pass over the event: skip bets ${at}`);
      expect(again.output()).not.toContain('already being rebuilt');
      // Nor can reads switch to it: it will not catch up until the event is passed over.
      const switched = projections(['switch', 'bets']);
      expect(await switched.exited).toMatchObject({ code: 1 });
      expect(switched.output()).toContain(
        `bets build ${build.build} stopped at event ${at} and cannot catch up; fix the projector, or pass over the event first: skip bets ${at}`,
      );
    } finally {
      await service.query('SELECT pg_advisory_unlock_all()');
      service.release();
    }
  }, 360_000);
});
