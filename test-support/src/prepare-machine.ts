import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import pg from 'pg';
import { testServerUrl } from './database.ts';

/**
 * What `npm test` needs of the machine, made so before the tests start: a PostgreSQL that takes
 * enough connections, and Debian's Chromium for the browser journeys. What it cannot change (a
 * server elsewhere, a user who is not root) it names, and the run stops.
 */

/**
 * Two test files run at once; a test app holds about 40 connections (its pool and listeners, and
 * one per follower of the log), and the topology spec starts three services.
 */
const NEEDED_CONNECTIONS = 300;
const CHROMIUM = '/usr/bin/chromium';

const isRoot = process.getuid?.() === 0;
const has = (command: string) =>
  ['/usr/bin', '/usr/sbin', '/bin', '/sbin'].some((dir) => existsSync(`${dir}/${command}`));

function stop(message: string): never {
  console.error(`npm test: ${message}`);
  process.exit(1);
}

async function maxConnections(): Promise<number> {
  const client = new pg.Client({ connectionString: testServerUrl });
  await client.connect();
  try {
    const result = await client.query<{ max_connections: string }>('SHOW max_connections');
    return Number(result.rows[0]?.max_connections);
  } finally {
    await client.end();
  }
}

async function waitForServer(): Promise<void> {
  for (let attempt = 0; attempt < 60; attempt++) {
    try {
      await maxConnections();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  stop(`PostgreSQL at ${new URL(testServerUrl).host} did not come back after its restart`);
}

async function enoughConnections(): Promise<void> {
  const have = await maxConnections().catch((error: unknown) =>
    stop(
      `cannot reach PostgreSQL at ${new URL(testServerUrl).host} (TEST_DATABASE_URL): ${String(error)}`,
    ),
  );
  if (have >= NEEDED_CONNECTIONS) return;
  const { hostname } = new URL(testServerUrl);
  const local = hostname === '127.0.0.1' || hostname === 'localhost';
  const versions = existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql') : [];
  if (!local || !isRoot || !has('pg_ctlcluster') || versions.length !== 1) {
    stop(
      `PostgreSQL allows ${have} connections and the tests need ${NEEDED_CONNECTIONS}: ` +
        `run ALTER SYSTEM SET max_connections = ${NEEDED_CONNECTIONS} and restart it`,
    );
  }
  console.log(
    `npm test: raising PostgreSQL's max_connections from ${have} to ${NEEDED_CONNECTIONS}`,
  );
  const client = new pg.Client({ connectionString: testServerUrl });
  await client.connect();
  await client.query(`ALTER SYSTEM SET max_connections = ${NEEDED_CONNECTIONS}`);
  await client.end();
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', versions[0]!, 'main', 'restart'], {
    stdio: 'inherit',
  });
  await waitForServer();
}

function chromium(): void {
  if (existsSync(CHROMIUM)) return;
  if (!isRoot || !has('apt-get')) {
    stop(`the browser journeys need Debian's Chromium at ${CHROMIUM}: apt-get install chromium`);
  }
  console.log("npm test: installing Debian's Chromium for the browser journeys");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium', 'fonts-dejavu-core'], {
    stdio: 'inherit',
    env,
  });
}

await enoughConnections();
chromium();
