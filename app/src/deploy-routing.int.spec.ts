import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNotificationQueue } from '@wagers/notifier/queue';
import { queuedSignInMailer } from '@wagers/notifier/sign-in-mailer';
import { commandService, webDist } from '@wagers/command-service/service';
import { createLogger } from '@wagers/platform/logger';
import { hostService, type RunningHost } from '@wagers/platform/service-host';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { dropQueueKeys } from '@wagers/test-support/redis';
import { testConfig, testQueuePrefix, testRedisUrl } from './test-support/test-app.ts';

const caddyfile = new URL('../../deploy/Caddyfile', import.meta.url);

/** The paths the deployment's proxy sends to the command service whatever the method. */
async function commandPaths(): Promise<string[]> {
  const text = await readFile(caddyfile, 'utf8');
  const line = text.split('\n').find((l) => l.trim().startsWith('@command path '));
  if (!line) throw new Error('deploy/Caddyfile has no @command path line');
  return line.trim().split(/\s+/).slice(2);
}

/** Caddy's path matcher: an exact path, or a prefix when the pattern ends in `*`. */
const matches = (pattern: string, path: string) =>
  pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern;

/**
 * In production a proxy (deploy/Caddyfile) sends reads to the projection service and everything
 * else to the command service, except the paths it names for the command service. Every read
 * the command service serves must be among them, or it answers 404 in production alone.
 */
describe('the deployment proxy and the command service', () => {
  let database: TestDatabase;
  let host: RunningHost;
  const queuePrefix = testQueuePrefix();

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url, queuePrefix);
    host = await hostService({
      config,
      logger: createLogger('silent'),
      migrations: [],
      webDist,
      parts: async function* (context) {
        const { queue, part } = openNotificationQueue(context);
        yield part;
        yield await commandService(context, queuedSignInMailer(queue));
      },
    });
  }, 120_000);
  afterAll(async () => {
    await host?.stop();
    await database?.drop();
    await dropQueueKeys(testRedisUrl, queuePrefix);
  });

  it('sends every read the command service serves to it', async () => {
    const patterns = await commandPaths();
    const reads = host
      .routes()
      // The proxy sends the API and avatars to the services; health and metrics are read from
      // each service's own port.
      .filter((route) => route.method === 'get' && /^\/(api|avatars)\//.test(route.path))
      // A parameter stands for any one segment.
      .map((route) => route.path.replace(/:[^/]+/g, 'x'));
    expect(reads.length).toBeGreaterThan(5);
    const unrouted = reads.filter((path) => !patterns.some((pattern) => matches(pattern, path)));
    expect(unrouted).toEqual([]);
  });

  it("sends the web app's pages to it, which serves them with the security headers", async () => {
    // The proxy's last handle, for whatever no other one takes, goes to the command service.
    const text = await readFile(caddyfile, 'utf8');
    const fallback = text.slice(text.lastIndexOf('\thandle {'));
    expect(fallback).toMatch(/^\thandle \{\s*(#.*\s*)*reverse_proxy command-service:3000\s*\}/);

    const page = await fetch(`${host.url}/bets/0b8e6f38-0000-4000-8000-000000000000`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await page.text()).toContain('<meta name="wagers:support-email"');
  });
});
