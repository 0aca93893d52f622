import os from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mayRenice } from '@wagers/test-support/process-stat';
import { READ_MODEL_CONNECTION } from '@wagers/platform/projections/runner';
import { startTestApp, type TestApp } from './test-support/test-app.ts';

/**
 * The product on the machine's PostgreSQL, which runs on the same host: the backends it appends
 * through run at nice 10 (APPEND_NICE's default), the followers' and the rest at the default 0.
 */
describe.runIf(process.platform === 'linux')(
  'the product on a server of its host (decision 35)',
  () => {
    let app: TestApp;
    let admin: pg.Client;

    beforeAll(async () => {
      app = await startTestApp();
      admin = new pg.Client({ connectionString: app.database.url });
      await admin.connect();
    }, 120_000);
    afterAll(async () => {
      await admin?.end();
      await app?.stop();
    });

    it("lowers the backends of its appends, and leaves the followers' backends as they are", async () => {
      // Signing in makes an account: appends to the log, and the followers' pages that follow it.
      await app.signIn('ann@example.com');
      await app.settled();
      const { rows } = await admin.query<{ pid: number; application_name: string }>(
        `SELECT pid, application_name FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      const priorities = rows.map((row) => ({ ...row, nice: os.getPriority(row.pid) }));
      const followers = priorities.filter((row) => row.application_name === READ_MODEL_CONNECTION);
      expect(followers.length).toBeGreaterThan(0);
      expect(followers.map((row) => row.nice)).toEqual(followers.map(() => 0));

      const lowered = priorities.filter((row) => row.nice === 10);
      if (mayRenice(rows[0]!.pid)) {
        // One connection at least appended; the rest of the process's connections did not.
        expect(lowered.length).toBeGreaterThan(0);
        expect(lowered.length).toBeLessThan(priorities.length);
      } else {
        expect(lowered).toEqual([]);
      }
    });
  },
);
