import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autogroupNice, mayRenice } from '@wagers/test-support/process-stat';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { lowerBackendPriority, type BackendPriorityOutcome } from './backend-priority.ts';
import { createPool } from './db.ts';
import { migrate, platformMigrations } from './migrations.ts';
import { createPostgresEventStore } from './event-store/postgres.ts';
import { sampleEvent, uniqueStreamId } from './event-store/sample-events.ts';

describe.runIf(process.platform === 'linux')(
  'backends lowered in CPU priority (decision 35)',
  () => {
    let db: TestDatabase;

    beforeAll(async () => {
      db = await createTestDatabase('wagers_priority');
      await migrate(db.url, [platformMigrations]);
    });
    afterAll(async () => {
      await db?.drop();
    });

    it('lowers the backend behind each new connection of the pool, on the server of this host', async () => {
      const pool = createPool(db.url, 2);
      const outcomes: BackendPriorityOutcome[] = [];
      const heard = new Promise<void>((resolve) => {
        lowerBackendPriority(pool, {
          nice: 7,
          onOutcome: (outcome) => {
            outcomes.push(outcome);
            if (outcomes.length === 2) resolve();
          },
        });
      });
      try {
        // Two connections at once: two backends.
        const [a, b] = await Promise.all([pool.connect(), pool.connect()]);
        const pids = await Promise.all(
          [a, b].map(async (client) => {
            const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
            return rows[0]!.pid;
          }),
        );
        await heard;
        a.release();
        b.release();

        expect(outcomes.map((o) => o.pid).sort()).toEqual([...pids].sort());
        for (const pid of pids) {
          if (mayRenice(pid)) {
            expect(outcomes.find((o) => o.pid === pid)).toEqual({ lowered: true, pid });
            expect(os.getPriority(pid)).toBe(7);
            const group = autogroupNice(pid);
            if (group !== null) expect(group).toBe(7);
          } else {
            expect(outcomes.find((o) => o.pid === pid)).toMatchObject({ lowered: false, pid });
            expect(os.getPriority(pid)).toBe(0);
          }
        }
        // The connections serve as before.
        await expect(pool.query<{ n: number }>('SELECT 1 AS n')).resolves.toMatchObject({
          rows: [{ n: 1 }],
        });
      } finally {
        await pool.end();
      }
    });

    it('leaves every backend as it is at nice 0', async () => {
      const pool = createPool(db.url, 1);
      const outcomes: BackendPriorityOutcome[] = [];
      lowerBackendPriority(pool, { nice: 0, onOutcome: (outcome) => outcomes.push(outcome) });
      try {
        const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(outcomes).toEqual([]);
        expect(os.getPriority(rows[0]!.pid)).toBe(0);
      } finally {
        await pool.end();
      }
    });

    it("sends the event store's appends through its append pool, and its reads through the other", async () => {
      const pool = createPool(db.url, 2);
      const appendPool = createPool(db.url, 1);
      const appendPids: number[] = [];
      lowerBackendPriority(appendPool, {
        nice: 3,
        onOutcome: (outcome) => {
          if (outcome.pid !== null) appendPids.push(outcome.pid);
        },
      });
      const store = createPostgresEventStore(pool, { connectionString: db.url, appendPool });
      try {
        const stream = uniqueStreamId('priority');
        const event = sampleEvent();
        await store.appendToStream(stream, [event], { expectedRevision: 'no_stream' });
        const [read] = await store.readStream(stream);
        expect(read?.id).toBe(event.id);
        // One connection opened for the append, none other for it; the read took the other pool.
        expect(appendPool.totalCount).toBe(1);
        expect(pool.totalCount).toBeGreaterThan(0);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(appendPids).toHaveLength(1);
      } finally {
        await store.close();
        await Promise.all([pool.end(), appendPool.end()]);
      }
    });
  },
);
