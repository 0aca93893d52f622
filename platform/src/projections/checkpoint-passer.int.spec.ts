import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { createPool, inTransaction } from '../db.ts';
import { migrate, platformMigrations } from '../migrations.ts';
import { ensureFollowerBuild } from './builds.ts';
import { CheckpointPasser, type PassOutcome } from './checkpoint-passer.ts';
import { readBuilds, saveCheckpoint } from './checkpoints.ts';

describe('checkpoints moved past pages that wrote nothing, for every follower of a process at once', () => {
  let database: TestDatabase;
  let pool: ReturnType<typeof createPool>;
  const names = ['pass-a', 'pass-b', 'pass-c'];

  beforeAll(async () => {
    database = await createTestDatabase('wagers_passer');
    await migrate(database.url, [platformMigrations]);
    pool = createPool(database.url, 4);
    for (const name of names) {
      await inTransaction(pool, async (client) => {
        await ensureFollowerBuild(client, { name, version: 1 });
        await saveCheckpoint(client, name, 1, '100-1', 0);
      });
    }
  }, 120_000);
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  const stored = async (name: string) => (await readBuilds(pool, name))[0]?.position;
  const offered = (passer: CheckpointPasser, name: string, from: string, to: string) =>
    new Promise<PassOutcome>((resolve) => passer.offer(name, 1, from, to, resolve));

  it('stores each move, and says when a checkpoint is no longer where its follower left it', async () => {
    const passer = new CheckpointPasser(pool, 5);
    // An operator sends one build back to the start meanwhile.
    await pool.query(`UPDATE projection_checkpoints SET position = NULL WHERE name = 'pass-c'`);

    const outcomes = await Promise.all([
      offered(passer, 'pass-a', '100-1', '105-1'),
      offered(passer, 'pass-b', '100-1', '107-3'),
      offered(passer, 'pass-c', '100-1', '109-2'),
    ]);

    expect(outcomes).toEqual([{ status: 'live' }, { status: 'live' }, { status: null }]);
    expect(await stored('pass-a')).toBe('105-1');
    expect(await stored('pass-b')).toBe('107-3');
    expect(await stored('pass-c')).toBeNull();
  });

  it('stores nothing of a move taken back before it went out', async () => {
    const passer = new CheckpointPasser(pool, 5);
    let heard = false;
    passer.offer('pass-a', 1, '105-1', '111-1', () => (heard = true));
    await passer.withdraw('pass-a', 1);
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(heard).toBe(false);
    expect(await stored('pass-a')).toBe('105-1');
  });

  it('starts a move where the one under way ends', async () => {
    const passer = new CheckpointPasser(pool, 1);
    // The row is held elsewhere, so the first move stays under way until it is let go.
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM projection_checkpoints WHERE name = 'pass-b' FOR UPDATE`);
      const first = offered(passer, 'pass-b', '107-3', '120-1');
      await waitForLockWaiter();
      // Offered from where its follower last stored the checkpoint, as a follower would.
      const second = offered(passer, 'pass-b', '107-3', '130-1');
      await holder.query('COMMIT');

      expect(await first).toEqual({ status: 'live' });
      expect(await second).toEqual({ status: 'live' });
      expect(await stored('pass-b')).toBe('130-1');
    } finally {
      holder.release();
    }
  });

  it("counts the events that moves acted on: a replaced move's with its own, a withdrawn one's handed back", async () => {
    const passer = new CheckpointPasser(pool, 20);
    const before = (await readBuilds(pool, 'pass-a'))[0]!;
    await pool.query(
      `UPDATE projection_checkpoints SET error = 'an old failure', error_position = '100-1'
        WHERE name = 'pass-a'`,
    );
    const start = before.position!;
    const replaced = new Promise<PassOutcome>((resolve) =>
      passer.offer('pass-a', 1, start, '140-1', resolve, 2),
    );
    const outcome = new Promise<PassOutcome>((resolve) =>
      passer.offer('pass-a', 1, start, '141-1', resolve, 3),
    );
    expect(await outcome).toEqual({ status: 'live' });
    expect(await Promise.race([replaced, Promise.resolve('not heard')])).toBe('not heard');
    expect((await readBuilds(pool, 'pass-a'))[0]).toMatchObject({
      position: '141-1',
      events: before.events + 5,
      error: null,
    });

    passer.offer('pass-a', 1, '141-1', '150-1', () => undefined, 4);
    passer.offer('pass-a', 1, '141-1', '151-1', () => undefined);
    expect(await passer.withdraw('pass-a', 1)).toBe(4);
    expect((await readBuilds(pool, 'pass-a'))[0]).toMatchObject({
      position: '141-1',
      events: before.events + 5,
    });
  });

  async function waitForLockWaiter(): Promise<void> {
    for (;;) {
      const waiting = await pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (Number(waiting.rows[0]?.n) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
});
