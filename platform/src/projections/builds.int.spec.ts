import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noting, statementLog } from '@wagers/test-support/statements';
import { inTransaction } from '../db.ts';
import { createBuild, dropBuild, finishBulkLoad, switchBuild } from './builds.ts';
import { readBuilds, saveFailure } from './checkpoints.ts';
import type { Projector } from './projector.ts';
import { closeWatchedLog, openWatchedLog, type WatchedLog } from './watched-log.ts';

/** A version of a projector of one table, `viewed_rows`, with the columns given. */
const version = (n: number, columns: string): Projector => ({
  name: 'viewed',
  version: n,
  tables: ['viewed_rows'],
  schema: {
    tables: `CREATE TABLE viewed_rows (${columns})`,
    indexes: 'CREATE INDEX viewed_rows_id ON viewed_rows (id)',
  },
  async apply() {},
});

describe('switching reads to a build', () => {
  let log: WatchedLog;
  beforeAll(async () => {
    log = await openWatchedLog();
  });
  afterAll(() => closeWatchedLog(log));

  /** Builds `projector` with one row, switches reads to it; what was refused on the way. */
  async function buildAndSwitch(projector: Projector, row: string): Promise<string[]> {
    const statements = statementLog();
    await inTransaction(log.pool, async (client) => {
      const build = await createBuild(client, projector);
      await client.query(`INSERT INTO ${build.schemaName!}.viewed_rows VALUES ${row}`);
      await finishBulkLoad(client, projector, build);
      await expect(switchBuild(noting(client, statements), projector, build.build)).resolves.toBe(
        true,
      );
    });
    return statements.refused;
  }

  const viewOid = async () =>
    (await log.pool.query<{ oid: number }>(`SELECT 'public.viewed_rows'::regclass::oid AS oid`))
      .rows[0]!.oid;

  it('keeps the view where the new build keeps its columns, makes it anew where they changed, and no statement fails either way', async () => {
    expect(
      await buildAndSwitch(version(1, 'id text PRIMARY KEY, n int NOT NULL'), `('a', 1)`),
    ).toEqual([]);
    const first = await viewOid();
    await expect(log.pool.query('SELECT * FROM viewed_rows')).resolves.toMatchObject({
      rows: [{ id: 'a', n: 1 }],
    });

    // A column added at the end: the same view, reading the new build.
    expect(
      await buildAndSwitch(
        version(2, 'id text PRIMARY KEY, n int NOT NULL, note text'),
        `('b', 2, 'added')`,
      ),
    ).toEqual([]);
    expect(await viewOid()).toBe(first);
    await expect(log.pool.query('SELECT * FROM viewed_rows')).resolves.toMatchObject({
      rows: [{ id: 'b', n: 2, note: 'added' }],
    });

    // A column renamed and retyped, one dropped: a new view, with the new build's columns only.
    expect(
      await buildAndSwitch(version(3, 'id text PRIMARY KEY, total bigint NOT NULL'), `('c', 3)`),
    ).toEqual([]);
    const third = await viewOid();
    expect(third).not.toBe(first);
    const read = await log.pool.query('SELECT * FROM viewed_rows');
    expect(read.fields.map((field) => field.name)).toEqual(['id', 'total']);
    expect(read.rows).toEqual([{ id: 'c', total: '3' }]);

    // The same columns again: replaced in place.
    expect(
      await buildAndSwitch(version(4, 'id text PRIMARY KEY, total bigint NOT NULL'), `('d', 4)`),
    ).toEqual([]);
    expect(await viewOid()).toBe(third);
    await expect(log.pool.query('SELECT * FROM viewed_rows')).resolves.toMatchObject({
      rows: [{ id: 'd', total: '4' }],
    });
    expect((await readBuilds(log.pool, 'viewed')).map((b) => [b.build, b.status])).toEqual([
      [1, 'retired'],
      [2, 'retired'],
      [3, 'retired'],
      [4, 'live'],
    ]);
  });

  it('never gives a build number twice: a build dropped while being built keeps its number used', async () => {
    const projector = { ...version(1, 'id text PRIMARY KEY'), name: 'numbered' };
    const dropped = await inTransaction(log.pool, (client) => createBuild(client, projector));
    await inTransaction(log.pool, (client) => dropBuild(client, 'numbered', dropped.build));
    const next = await inTransaction(log.pool, (client) => createBuild(client, projector));
    expect(next.build).toBe(dropped.build + 1);
    // A second build while one is under way is refused, and takes no number with it.
    await expect(
      inTransaction(log.pool, (client) => createBuild(client, projector)),
    ).rejects.toThrow(/already being rebuilt/);
    await inTransaction(log.pool, (client) => dropBuild(client, 'numbered', next.build));
    const third = await inTransaction(log.pool, (client) => createBuild(client, projector));
    expect(third.build).toBe(next.build + 1);
    expect((await readBuilds(log.pool, 'numbered')).map((b) => b.build)).toEqual([third.build]);
  });

  it('never switches to a build stopped at an event, though it is as far as the live build', async () => {
    const projector = { ...version(1, 'id text PRIMARY KEY'), name: 'halted' };
    const first = await inTransaction(log.pool, async (client) => {
      const row = await createBuild(client, projector);
      await finishBulkLoad(client, projector, row);
      await switchBuild(client, projector, row.build);
      return row;
    });
    // Both stopped at the first event of the log: the new build is no further than the live one.
    const next = await inTransaction(log.pool, async (client) => {
      const row = await createBuild(client, projector);
      await finishBulkLoad(client, projector, row);
      return row;
    });
    for (const build of [first.build, next.build]) {
      await saveFailure(log.pool, 'halted', build, {
        position: '1-1',
        eventId: '00000000-0000-0000-0000-000000000001',
        error: 'projector bug',
      });
    }
    await expect(
      inTransaction(log.pool, (client) => switchBuild(client, projector, next.build)),
    ).resolves.toBe(false);
    expect((await readBuilds(log.pool, 'halted')).map((b) => [b.build, b.status])).toEqual([
      [first.build, 'live'],
      [next.build, 'building'],
    ]);
  });
});
