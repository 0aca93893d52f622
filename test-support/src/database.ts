import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Server the tests use: a real PostgreSQL, the machine's own unless TEST_DATABASE_URL says otherwise. */
export const testServerUrl =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * The same database under another application name: a process's shared connections (one LISTEN
 * connection per database) are keyed by connection string, so this stands for another process.
 */
export function asAnotherProcess(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('application_name', 'another-process');
  return parsed.toString();
}

const BACKENDS_GONE_MS = 2000;

/**
 * Waits, for a while, until no backend serves `name`. A pool ended just before has sent its
 * goodbyes, but its backends leave a moment later; `DROP DATABASE … WITH (FORCE)` meanwhile
 * terminates them, and the FATAL they send then reaches a client that no longer listens for
 * errors: an unhandled error in whichever spec file was running. Connections a spec left open
 * are still ended by the drop, once the wait is over.
 */
async function backendsGone(client: pg.Client, name: string): Promise<void> {
  const deadline = Date.now() + BACKENDS_GONE_MS;
  while (Date.now() < deadline) {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
      [name],
    );
    if (rows[0]!.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A new, empty database for one test file, dropped when the file is done. */
export async function createTestDatabase(prefix = 'wagers_test'): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testServerUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: withDatabase(testServerUrl, name),
    async drop() {
      const client = new pg.Client({ connectionString: testServerUrl });
      await client.connect();
      try {
        await backendsGone(client, name);
        await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
