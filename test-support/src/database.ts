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
        await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
