import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPool } from '@wagers/platform/db';
import { createEventStore } from '@wagers/platform/event-store/factory';
import type { EventStore } from '@wagers/platform/event-store/port';
import { createLogger } from '@wagers/platform/logger';
import { migrate, platformMigrations } from '@wagers/platform/migrations';
import { readBuilds } from '@wagers/platform/projections/checkpoints';
import {
  runProjector,
  type BuildApart,
  type BuildApartProcess,
} from '@wagers/platform/projections/runner';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { betsProjector } from '../bets/bets.projector.ts';
import { readModelMigrations } from '../migrations.ts';
import { writeBetLog } from '../test-support/bet-log.ts';
import { buildApart } from './build-apart.ts';

const BETS = 2_000;

let db: TestDatabase;
let pool: ReturnType<typeof createPool>;
let store: EventStore;
let total: number;

interface Logged {
  msg?: string;
  build?: number;
  pid?: number;
  code?: number | null;
}

/** A service's runner of the bets projector, its log kept, with `apart` for its large builds. */
function serviceRunner(apart: BuildApart | undefined) {
  const logged: Logged[] = [];
  const logger = createLogger(
    'info',
    {},
    { write: (line: string) => void logged.push(JSON.parse(line) as Logged) },
  );
  const runner = runProjector(betsProjector, {
    store,
    pool,
    connectionString: db.url,
    logger,
    ...(apart && { buildApart: apart }),
  });
  return { runner, logged };
}

/** The service's starter, with what it started kept; its processes load `pageSize` at a time. */
function counted(minEvents: number, pageSize?: number) {
  const started: BuildApartProcess[] = [];
  const logger = createLogger('silent');
  const real = buildApart(
    { BUILD_APART_EVENTS: minEvents, EVENT_STORE: 'postgres', REBUILD_NICE: 10 },
    db.url,
    logger,
    pageSize === undefined ? {} : { pageSize },
  )!;
  const apart: BuildApart = {
    minEvents,
    start(name) {
      const child = real.start(name);
      started.push(child);
      return child;
    },
  };
  return { apart, started };
}

/** Waits until a build's own process has started and loaded part of the log into build 2. */
async function loadedPartWay(started: BuildApartProcess[]): Promise<void> {
  for (;;) {
    const row = (await readBuilds(pool, 'bets')).find((r) => r.build === 2);
    if (row?.status === 'live') throw new Error('build 2 was live before it could be stopped');
    if (started.length > 0 && row && row.events > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The new build, once reads have switched to it. */
async function liveBuild(timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const live = (await readBuilds(pool, 'bets')).find((row) => row.status === 'live');
    if (live?.version === betsProjector.version) return live;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('reads never switched to the new bets build');
}

async function betsIn(schema: string): Promise<number> {
  const result = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.rm_bets`);
  return Number(result.rows[0]?.n);
}

/**
 * A database of its own with a log of bets, whose live bets build is of the version before this
 * code's: as at a deploy that raises the projector's version, a service begins build 2.
 */
beforeEach(async () => {
  db = await createTestDatabase();
  await migrate(db.url, [platformMigrations, readModelMigrations]);
  pool = createPool(db.url, 6);
  store = createEventStore({ EVENT_STORE: 'postgres' }, pool, db.url);
  total = await writeBetLog(pool, { users: 40, bets: BETS, writers: 4, betsPerTransaction: 10 });
  await pool.query(
    "UPDATE projection_checkpoints SET version = $1 WHERE name = 'bets' AND status = 'live'",
    [betsProjector.version - 1],
  );
});
afterEach(async () => {
  await store?.close();
  await pool?.end();
  await db?.drop();
});

describe("a service's new build with much of the log to load", () => {
  it('is loaded by a process of its own while the service stands by, and then followed live by the service', async () => {
    const { apart, started } = counted(1_000);
    const { runner, logged } = serviceRunner(apart);
    try {
      const live = await liveBuild();
      expect(started).toHaveLength(1);
      expect(await started[0]!.ended).toBe(0);
      expect(live).toMatchObject({ events: total });
      expect(await betsIn(live.schemaName!)).toBe(BETS);
      const messages = logged.map((line) => line.msg);
      expect(messages).toContain('loading the build in a process of its own, below the services');
      expect(messages).toContain("an operator's rebuild is filling this build; standing by");
      // Once that process is done, the service holds the live build and follows the log on.
      await runner.active;
      expect(runner.holding.has(live.build)).toBe(true);
    } finally {
      await runner.stop();
    }
  }, 180_000);

  it('is loaded on by the service itself, from where that process stopped, when the process ends early', async () => {
    const { apart, started } = counted(1_000, 100);
    const { runner, logged } = serviceRunner(apart);
    try {
      // Stopped (as at a service's stop) once it has loaded part of the log.
      await loadedPartWay(started);
      await started[0]!.stop();
      expect(await started[0]!.ended).not.toBe(0);
      // It stopped at a checkpoint of its own, part way, which the service goes on from.
      const left = (await readBuilds(pool, 'bets')).find((r) => r.build === 2)!;
      expect(left.status).toBe('building');
      expect(left.events).toBeGreaterThan(0);
      expect(left.events).toBeLessThan(total);
      const live = await liveBuild();
      expect(live).toMatchObject({ events: total });
      expect(await betsIn(live.schemaName!)).toBe(BETS);
      expect(logged.map((line) => line.msg)).toContain(
        "the build's own process ended early; the service goes on with the build",
      );
      expect(started).toHaveLength(1);
    } finally {
      await runner.stop();
    }
  }, 180_000);

  it('is stopped at its checkpoint with the service, for the next start to go on from', async () => {
    const { apart, started } = counted(1_000, 100);
    const { runner } = serviceRunner(apart);
    let stoppedRunner = false;
    try {
      await loadedPartWay(started);
      await runner.stop();
      stoppedRunner = true;
      // The service's stop waited for it.
      expect(await Promise.race([started[0]!.ended, Promise.resolve('running')])).not.toBe(
        'running',
      );
      const left = (await readBuilds(pool, 'bets')).find((r) => r.build === 2)!;
      expect(left.status).toBe('building');
      expect(left.events).toBeGreaterThan(0);
      expect(left.events).toBeLessThan(total);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const after = (await readBuilds(pool, 'bets')).find((r) => r.build === 2)!;
      expect(after.events).toBe(left.events);
    } finally {
      if (!stoppedRunner) await runner.stop();
    }
  }, 180_000);

  it('is loaded by the service itself when the log is shorter than the threshold', async () => {
    const { apart, started } = counted(total + 1);
    const { runner } = serviceRunner(apart);
    try {
      const live = await liveBuild();
      expect(live).toMatchObject({ events: total });
      expect(started).toHaveLength(0);
    } finally {
      await runner.stop();
    }
  }, 180_000);
});
