import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '@wagers/platform/db';
import { sampleEvent } from '@wagers/platform/event-store/sample-events';
import { createLogger } from '@wagers/platform/logger';
import { createBuild, finishBulkLoad } from '@wagers/platform/projections/builds';
import {
  readBuilds,
  readLiveBuild,
  saveCheckpoint,
} from '@wagers/platform/projections/checkpoints';
import { projectionGauges } from '@wagers/platform/projections/gauges';
import { operatorRebuildLock, runProjector } from '@wagers/platform/projections/runner';
import type { Projector } from '@wagers/platform/projections/projector';
import {
  closeWatchedLog,
  openWatchedLog,
  type WatchedLog,
} from '@wagers/platform/projections/watched-log';
import { formatStatus } from './format.ts';
import { projectionStatus, rebuildProjector, skipEvent, switchProjector } from './projections.ts';

const logger = createLogger('silent');

/** A projector of one table that keeps nothing: its builds are what the operator acts on. */
function projector(name: string, version: number, previous?: Projector): Projector {
  return {
    name,
    version,
    tables: [`${name}_rows`],
    schema: {
      tables: `CREATE TABLE ${name}_rows (id text PRIMARY KEY)`,
      indexes: `CREATE INDEX ${name}_rows_id ON ${name}_rows (id)`,
    },
    async apply() {},
    ...(previous && { previous }),
  };
}

describe('the operator commands on builds of another version', () => {
  let log: WatchedLog;
  beforeAll(async () => {
    log = await openWatchedLog();
  });
  afterAll(() => closeWatchedLog(log));

  const deps = () => ({
    pool: log.pool,
    store: log.store,
    connectionString: log.db.url,
    logger,
    pollMs: 50,
  });
  const states = async (name: string) =>
    (await readBuilds(log.pool, name)).map((b) => [b.build, b.version, b.status]);

  it('refuses to resume or switch to a build of an older version the code has none for, and says what to do', async () => {
    const v1 = projector('older', 1);
    await expect(rebuildProjector(v1, deps())).resolves.toMatchObject({ outcome: 'switched' });
    // Version 1's rebuild left under way; the command line is now version 2's, without version 1.
    await inTransaction(log.pool, (client) => createBuild(client, v1, { autoSwitch: false }));
    const v2 = projector('older', 2);
    await expect(rebuildProjector(v2, deps())).rejects.toThrow(
      'older build 2 is of version 1, and this code (version 2) has no code for it, so it cannot resume it: ' +
        'retire it (retire older 2) and rebuild, or start the projection service, which replaces it with a build of version 2',
    );
    await expect(switchProjector(log.pool, log.store, v2)).rejects.toThrow(
      'older build 2 is of version 1, and this code (version 2) has no code for it, so it cannot switch to it',
    );
    expect(await states('older')).toEqual([
      [1, 1, 'live'],
      [2, 1, 'building'],
    ]);
    // With version 1's code kept, the same build is resumed.
    await expect(
      rebuildProjector(projector('older', 2, v1), { ...deps(), manualSwitch: true }),
    ).resolves.toMatchObject({ build: 2, resumed: true, outcome: 'caught up' });
  }, 60_000);

  it('never switches reads back to an older version, nor starts a build of one', async () => {
    const v1 = projector('newer', 1);
    const v2 = projector('newer', 2, v1);
    await expect(rebuildProjector(v1, deps())).resolves.toMatchObject({ outcome: 'switched' });
    await expect(rebuildProjector(v2, deps())).resolves.toMatchObject({ outcome: 'switched' });
    // Version 1's command line, run after the deploy, is refused a rebuild...
    await expect(rebuildProjector(v1, deps())).rejects.toThrow(
      "newer reads use build 2 of version 2, newer than this code's version 1: rebuild it with the code of version 2",
    );
    // ...and a build of version 1 begun anyway (as it was before) is never switched to.
    const old = await inTransaction(log.pool, async (client) => {
      const row = await createBuild(client, v1, { autoSwitch: false });
      await finishBulkLoad(client, v1, row);
      return row;
    });
    for (const code of [v1, v2]) {
      await expect(switchProjector(log.pool, log.store, code)).rejects.toThrow(
        `newer build ${old.build} is of version 1, older than the live build 2 (version 2): reads never switch back to an older version`,
      );
    }
    expect(await states('newer')).toEqual([
      [1, 1, 'retired'],
      [2, 2, 'live'],
      [3, 1, 'building'],
    ]);
  }, 60_000);
});

describe('the operator commands on builds stopped at an event, skipped or under way', () => {
  let log: WatchedLog;
  beforeAll(async () => {
    log = await openWatchedLog();
  });
  afterAll(() => closeWatchedLog(log));

  /** Counts events per stream; with `failOn`, throws at events of that type (a bug). */
  function counting(failOn?: string, name = 'fixed', version = 1): Projector {
    return {
      ...projector(name, version),
      schema: {
        tables: `CREATE TABLE ${name}_rows (id text PRIMARY KEY, n int NOT NULL)`,
        indexes: `CREATE INDEX ${name}_rows_n ON ${name}_rows (n)`,
      },
      async apply(client, event) {
        if (event.type === failOn) throw new Error('projector bug');
        await client.query(
          `INSERT INTO ${name}_rows (id, n) VALUES ($1, 1)
           ON CONFLICT (id) DO UPDATE SET n = ${name}_rows.n + 1`,
          [event.streamId],
        );
      },
    };
  }

  it('run again with the fixed code of the same version, gets past the event, goes live and clears the error', async () => {
    const append = (type: string) =>
      log.store.appendToStream('s-fixed', [sampleEvent(type, {})], { expectedRevision: 'any' });
    await append('Counted');
    const bad = await append('Odd');
    await append('Counted');
    const deps = { pool: log.pool, store: log.store, connectionString: log.db.url, logger };
    await expect(rebuildProjector(counting('Odd'), { ...deps, pollMs: 50 })).rejects.toThrow(
      `fixed build 1 stopped at event ${bad.position}: projector bug`,
    );
    expect(await readBuilds(log.pool, 'fixed')).toMatchObject([
      { build: 1, status: 'building', errorPosition: bad.position },
    ]);

    await expect(rebuildProjector(counting(), { ...deps, pollMs: 50 })).resolves.toEqual({
      build: 1,
      resumed: true,
      outcome: 'switched',
    });
    expect(await readBuilds(log.pool, 'fixed')).toMatchObject([
      { build: 1, status: 'live', error: null, errorPosition: null },
    ]);
    const rows = await log.pool.query('SELECT n FROM fixed_rows WHERE id = $1', ['s-fixed']);
    expect(rows.rows).toEqual([{ n: 3 }]);
  }, 60_000);

  it('does not switch reads to a first build while events committed before it are hidden behind an open transaction', async () => {
    const name = 'hidden';
    const append = (type: string) =>
      log.store.appendToStream('s-hidden', [sampleEvent(type, {})], { expectedRevision: 'any' });
    const deps = { pool: log.pool, store: log.store, connectionString: log.db.url, logger };
    await append('Counted');
    // A transaction of this database with an id, still open: what commits after it is hidden
    // from every reader of the log until it ends (the log's horizon).
    const holder = await log.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_current_xact_id()');
      await append('Counted');
      const rebuilt = rebuildProjector(counting(undefined, name), { ...deps, pollMs: 50 });
      // Loaded and indexed as far as the log lets it read, the build waits: reads stay off it.
      for (let i = 0; i < 100; i++) {
        if ((await readBuilds(log.pool, name))[0]?.indexed) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await readBuilds(log.pool, name)).toMatchObject([
        { build: 1, status: 'building', indexed: true },
      ]);
      await holder.query('COMMIT');
      await expect(rebuilt).resolves.toMatchObject({ build: 1, outcome: 'switched' });
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      holder.release();
    }
    const rows = await log.pool.query(`SELECT n FROM ${name}_rows WHERE id = $1`, ['s-hidden']);
    expect(rows.rows).toEqual([{ n: 2 }]);
  }, 60_000);

  it('leaves a retired build that stopped out of skip, of the stopped builds in status and of the stopped gauge', async () => {
    const name = 'skipped';
    const append = (type: string) =>
      log.store.appendToStream('s-skipped', [sampleEvent(type, {})], { expectedRevision: 'any' });
    const deps = { pool: log.pool, store: log.store, connectionString: log.db.url, logger };
    await append('Counted');
    await expect(rebuildProjector(counting(undefined, name), deps)).resolves.toMatchObject({
      build: 1,
      outcome: 'switched',
    });
    // Version 1, live, stops at an event it cannot apply...
    const bad = await append('Strange');
    const service = runProjector(counting('Strange', name), deps);
    try {
      for (let i = 0; i < 200; i++) {
        if ((await readBuilds(log.pool, name))[0]?.error) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await service.stop();
    }
    // ...version 2, fixed, takes over reads, and retires it as it stands...
    await expect(rebuildProjector(counting(undefined, name, 2), deps)).resolves.toMatchObject({
      build: 2,
      outcome: 'switched',
    });
    // ...and version 3 has the bug again.
    await expect(rebuildProjector(counting('Strange', name, 3), deps)).rejects.toThrow(
      `skipped build 3 stopped at event ${bad.position}`,
    );
    expect(await readBuilds(log.pool, name)).toMatchObject([
      { build: 1, version: 1, status: 'retired', errorPosition: bad.position },
      { build: 2, version: 2, status: 'live', error: null },
      { build: 3, version: 3, status: 'building', errorPosition: bad.position },
    ]);

    const status = await projectionStatus(log.pool, log.store, []);
    const shown = formatStatus({ ...status, builds: status.builds.filter((b) => b.name === name) });
    expect(shown).toMatch(/^skipped\s+1\s+1\s+retired\s/m);
    expect(shown).toMatch(/^skipped\s+3\s+3\s+building, stopped\s/m);
    expect(shown).not.toContain('skipped build 1 stopped');
    expect(shown).toContain(`skipped build 3 stopped at ${bad.position}`);
    const gauge = projectionGauges.find((g) => g.name === 'wagers_projection_stopped')!;
    expect(
      status.builds.filter((b) => b.name === name).map((b) => [b.build, gauge.value(b)]),
    ).toEqual([
      [1, null],
      [2, null],
      [3, 1],
    ]);

    // The skip is for version 3, the build that waits there, and the rebuild goes past it.
    await expect(skipEvent(log.pool, log.store, { name }, bad.position)).resolves.toMatchObject({
      build: 3,
      version: 3,
    });
    await expect(rebuildProjector(counting('Strange', name, 3), deps)).resolves.toMatchObject({
      build: 3,
      resumed: true,
      outcome: 'switched',
    });
  }, 60_000);

  it('lets one skip serve two builds of the version: one stopped at the event, the other on its way to it', async () => {
    const name = 'twice';
    let gate: Promise<void> = Promise.resolve();
    let open: () => void = () => undefined;
    let waiting = false;
    const twice: Projector = {
      ...counting(undefined, name),
      async apply(client, event) {
        waiting = true;
        await gate;
        if (event.type === 'Weird') throw new Error('projector bug');
        await client.query(
          `INSERT INTO twice_rows (id, n) VALUES ($1, 1)
           ON CONFLICT (id) DO UPDATE SET n = twice_rows.n + 1`,
          [event.streamId],
        );
      },
    };
    const append = (type: string) =>
      log.store.appendToStream('s-twice', [sampleEvent(type, {})], { expectedRevision: 'any' });
    const until = async (what: () => Promise<boolean>) => {
      for (let i = 0; i < 200 && !(await what()); i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
    };
    const deps = { pool: log.pool, store: log.store, connectionString: log.db.url, logger };
    const counted = await append('Counted');
    const service = runProjector(twice, deps);
    try {
      await until(async () => (await readLiveBuild(log.pool, name))?.position === counted.position);
      // The live build stops at an event it cannot apply.
      const bad = await append('Weird');
      await until(async () => (await readLiveBuild(log.pool, name))?.error !== null);
      expect(await readLiveBuild(log.pool, name)).toMatchObject({
        build: 1,
        errorPosition: bad.position,
      });

      // A rebuild of the same version is on its way to the event (held back at its first page)...
      gate = new Promise((resolve) => (open = resolve));
      waiting = false;
      await inTransaction(log.pool, (client) => createBuild(client, twice));
      await until(() => Promise.resolve(waiting));
      // ...when the operator skips the event the live build stopped at.
      await expect(skipEvent(log.pool, log.store, { name }, bad.position)).resolves.toMatchObject({
        build: 1,
      });
      open();
      await until(async () => (await readLiveBuild(log.pool, name))?.build === 2);
      expect(await readBuilds(log.pool, name)).toMatchObject([
        { build: 1, status: 'retired', error: null },
        { build: 2, status: 'live', error: null },
      ]);
    } finally {
      open();
      await service.stop();
    }
  }, 60_000);

  it('refuses a switch to a build still making its indexes, saying so, and status shows it', async () => {
    const name = 'indexing';
    const deps = { pool: log.pool, store: log.store, connectionString: log.db.url, logger };
    await expect(rebuildProjector(projector(name, 1), deps)).resolves.toMatchObject({
      build: 1,
      outcome: 'switched',
    });
    // A build that has loaded the log as far as its head, and is making its indexes now.
    const row = await inTransaction(log.pool, (client) => createBuild(client, projector(name, 1)));
    const head = await log.store.headPosition();
    await inTransaction(log.pool, (client) => saveCheckpoint(client, name, row.build, head!, 0));
    await expect(switchProjector(log.pool, log.store, projector(name, 1))).rejects.toThrow(
      `indexing build ${row.build} has loaded the log and is still making its indexes; ` +
        'try again once status no longer shows it as building, indexing',
    );
    const status = await projectionStatus(log.pool, log.store, []);
    const shown = formatStatus({ ...status, builds: status.builds.filter((b) => b.name === name) });
    expect(shown).toMatch(
      new RegExp(`^indexing\\s+${row.build}\\s+1\\s+building, indexing\\s+\\S+\\s+0\\s+0\\s`, 'm'),
    );
  }, 60_000);

  it('gives way to a reader left open on the views rather than hold up every read behind the switch, and says so', async () => {
    const name = 'busy';
    const deps = { pool: log.pool, store: log.store, connectionString: log.db.url, logger };
    await expect(rebuildProjector(projector(name, 1), deps)).resolves.toMatchObject({ build: 1 });
    await expect(
      rebuildProjector(projector(name, 1), { ...deps, manualSwitch: true }),
    ).resolves.toMatchObject({ build: 2, outcome: 'caught up' });
    const reader = await log.pool.connect();
    try {
      await reader.query('BEGIN');
      await reader.query('SELECT count(*) FROM busy_rows');
      const began = Date.now();
      const switching = switchProjector(log.pool, log.store, projector(name, 1));
      // A read while the switch waits answers once it gives way, not once the reader ends.
      await expect(
        log.pool.query('SELECT count(*)::int AS n FROM busy_rows'),
      ).resolves.toMatchObject({ rows: [{ n: 0 }] });
      await expect(switching).rejects.toThrow(
        'reads of busy are held by a transaction open for longer than 1 s, so the switch to build 2 gave way',
      );
      expect(Date.now() - began).toBeLessThan(3000);
    } finally {
      await reader.query('COMMIT');
      reader.release();
    }
    await expect(switchProjector(log.pool, log.store, projector(name, 1))).resolves.toBe(2);
  }, 60_000);

  const eventually = async (what: string, check: () => boolean | Promise<boolean>) => {
    for (let i = 0; i < 500; i++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`timed out waiting for ${what}`);
  };

  it("leaves an operator's rebuild to the operator's process: a service takes it over only once that process is gone", async () => {
    const name = 'beside';
    const deps = () => ({
      pool: log.pool,
      store: log.store,
      connectionString: log.db.url,
      logger,
      pollMs: 20,
      standbyRetryMs: 20,
    });
    for (let i = 0; i < 20; i++)
      await log.store.appendToStream(`s-beside-${i}`, [sampleEvent('Counted', {})], {
        expectedRevision: 'any',
      });
    const service = runProjector(projector(name, 1), deps());
    try {
      await eventually('the first build to go live', async () =>
        (await readBuilds(log.pool, name)).some((b) => b.status === 'live'),
      );

      // An operator's rebuild: the service never fills the build, the operator's process does.
      let serviceHeld = false;
      const runners = new Set<string>();
      await expect(
        rebuildProjector(projector(name, 1), {
          ...deps(),
          onProgress: (progress) => {
            serviceHeld ||= service.holding.has(progress.build);
            runners.add(progress.runner);
          },
        }),
      ).resolves.toMatchObject({ build: 2, outcome: 'switched' });
      expect(serviceHeld).toBe(false);
      // From its first figure on, the command line says so.
      expect([...runners]).toEqual(['this process']);
      // Once reads have switched, the service follows the new build.
      await eventually('the service to follow build 2', () => service.holding.has(2));

      // An operator's process holds the rebuild of build 3, and then is gone before filling it.
      const operator = await log.pool.connect();
      let released = false;
      try {
        await operator.query('SELECT pg_advisory_lock(hashtext($1))', [operatorRebuildLock(name)]);
        await inTransaction(log.pool, (client) => createBuild(client, projector(name, 1)));
        // The service stands by: build 3 stays empty for as long as the operator holds it.
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(service.holding.has(3)).toBe(false);
        expect((await readBuilds(log.pool, name)).find((b) => b.build === 3)).toMatchObject({
          status: 'building',
          events: 0,
        });
        await operator.query('SELECT pg_advisory_unlock_all()');
        released = true;
      } finally {
        operator.release(!released);
      }
      // With the operator gone, the service takes the build over, fills it and switches reads.
      const whole = (await readBuilds(log.pool, name)).find((b) => b.build === 2)!.events;
      await eventually('the service to finish build 3', async () =>
        (await readBuilds(log.pool, name)).some(
          (b) => b.build === 3 && b.status === 'live' && b.events === whole,
        ),
      );
    } finally {
      await service.stop();
    }
  }, 60_000);
});
