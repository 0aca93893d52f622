import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@wagers/contracts/api/user';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { dropQueueKeys } from '@wagers/test-support/redis';
import { startChildService, type ChildService } from './test-support/child-service.ts';
import { testRedisUrl, waitForMailLink } from './test-support/test-app.ts';

const services = ['command-service', 'projection-service', 'notifier'] as const;
type ServiceName = (typeof services)[number];

/**
 * Production runs each service as its own process (docker-compose.yml). Here the three start
 * the same way, on one database and one Redis, and a person signs in across them: the command
 * service issues the link, the notifier delivers it, the projection service answers who they are.
 */
describe('each service as its own process', () => {
  let database: TestDatabase;
  const urls = {} as Record<ServiceName, string>;
  const prefix = `wagers-test-${randomBytes(4).toString('hex')}`;
  const children: ChildService[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    for (const name of services) {
      const child = await startChildService({
        entry: `${name}/src/main.ts`,
        databaseUrl: database.url,
        queuePrefix: prefix,
      });
      urls[name] = child.url;
      children.push(child);
    }
  }, 240_000);

  afterAll(async () => {
    await Promise.all(children.map((child) => child.stop()));
    await database?.drop();
    await dropQueueKeys(testRedisUrl, prefix);
  }, 120_000);

  it('signs a person in across the three services', async () => {
    const asked = await fetch(`${urls['command-service']}/api/login/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'split@example.com' }),
    });
    expect(asked.status).toBe(202);

    const link = await waitForMailLink(urls.notifier, 'split@example.com');
    expect(link).toContain(`${urls['command-service']}/api/login/verify`);

    const page = await fetch(link, { redirect: 'manual' });
    expect(page.status).toBe(200);
    const followed = await fetch(`${urls['command-service']}/api/login/verify`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: new URL(link).searchParams.get('token') ?? '' }),
    });
    expect(followed.status).toBe(303);
    const cookie = (followed.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

    const me = await fetch(`${urls['projection-service']}/api/auth/user`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as User).email).toBe('split@example.com');

    for (const [i, name] of services.entries()) {
      const metrics = await fetch(`${urls[name]}/metrics`);
      // On failure: what the service answered and logged.
      const said = metrics.ok ? '' : `${await metrics.text()}\n${children[i]?.output() ?? ''}`;
      expect(metrics.status, `${name}: ${said}`).toBe(200);
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
