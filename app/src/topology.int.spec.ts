import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@wagers/contracts/api/user';
import { freePort } from '@wagers/platform/embedded';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { testRedisUrl, waitForMailLink } from './test-support/test-app.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const services = ['command-service', 'projection-service', 'notifier'] as const;
type ServiceName = (typeof services)[number];

async function waitUntilReady(
  url: string,
  child: ChildProcess,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited early:\n${output()}`);
    const ready = await fetch(`${url}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not ready in 30 s:\n${output()}`);
}

/**
 * Production runs each service as its own process (docker-compose.yml). Here the three start
 * the same way, on one database and one Redis, and a person signs in across them: the command
 * service issues the link, the notifier delivers it, the projection service answers who they are.
 */
describe('each service as its own process', () => {
  let database: TestDatabase;
  const urls = {} as Record<ServiceName, string>;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const prefix = `wagers-test-${randomBytes(4).toString('hex')}`;
    for (const name of services) {
      const port = await freePort();
      urls[name] = `http://localhost:${port}`;
      let output = '';
      const child = spawn(process.execPath, ['--import', 'tsx', `${name}/src/main.ts`], {
        cwd: root,
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'test',
          PORT: String(port),
          PUBLIC_URL: `http://localhost:${port}`,
          DATABASE_URL: database.url,
          REDIS_URL: testRedisUrl,
          QUEUE_PREFIX: prefix,
          DEV_INBOX: 'true',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      children.push(child);
      await waitUntilReady(urls[name], child, () => output);
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    await database?.drop();
  }, 60_000);

  it('signs a person in across the three services', async () => {
    const asked = await fetch(`${urls['command-service']}/api/login/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'split@example.com' }),
    });
    expect(asked.status).toBe(202);

    const link = await waitForMailLink(urls.notifier, 'split@example.com');
    expect(link).toContain(`${urls['command-service']}/api/login/verify`);

    const followed = await fetch(link, { redirect: 'manual' });
    expect(followed.status).toBe(303);
    const cookie = (followed.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

    const me = await fetch(`${urls['projection-service']}/api/auth/user`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as User).email).toBe('split@example.com');

    for (const name of services) {
      const metrics = await fetch(`${urls[name]}/metrics`);
      expect(metrics.status, name).toBe(200);
    }
    // A read the command service does not serve, and a write the query service does not.
    expect(
      (await fetch(`${urls['command-service']}/api/auth/user`, { headers: { cookie } })).status,
    ).toBe(404);
    expect(
      (await fetch(`${urls['projection-service']}/api/login/email`, { method: 'POST' })).status,
    ).toBe(404);
  });
});
