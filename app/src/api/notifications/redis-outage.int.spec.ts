import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  mailLinks,
  startTestApp,
  type ApiClient,
  type TestApp,
} from '../../test-support/test-app.ts';
import { freePort } from '@wagers/platform/embedded';
import { FAILED, NO_ANSWER } from '@wagers/platform/http/health';
import { eventually } from '@wagers/test-support/log';

/** A redis-server of this test's own, so killing it touches nobody else's queue. */
async function startRedis(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
  });
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGKILL');
  });
}

/** Answers within `ms`, or fails the test as hung. */
const answer = (url: string, init: RequestInit = {}, ms = 5000) =>
  fetch(url, { ...init, signal: AbortSignal.timeout(ms) });

describe('when the Redis the app uses goes away and comes back', () => {
  let dir: string;
  let port: number;
  let redis: ChildProcess;
  let app: TestApp;
  let ann: ApiClient;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wagers-redis-'));
    port = await freePort();
    redis = await startRedis(port, dir);
    app = await startTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
    ann = await app.signIn('ann@example.com');
  });
  afterAll(async () => {
    await app?.stop();
    if (redis) await kill(redis);
    await rm(dir, { recursive: true, force: true });
  });

  const inbox = async (to: string) =>
    ((await (await fetch(`${app.url}/api/dev/mail`)).json()) as { to: string }[]).filter(
      (mail) => mail.to === to,
    );

  it('says it is not ready, keeps taking commands, refuses sign-in links at once, and recovers', async () => {
    expect((await answer(`${app.url}/readyz`)).status).toBe(200);
    await kill(redis);

    const ready = await answer(`${app.url}/readyz`);
    expect(ready.status).toBe(503);
    const { checks } = (await ready.json()) as { checks: Record<string, string> };
    expect(checks.postgres).toBe('ok');
    // Named as down, without the error's own words (a host, a port, a user name).
    expect([FAILED, NO_ANSWER]).toContain(checks.redis);

    // A command that only appends to the log does not wait on Redis.
    const invited = await answer(`${app.url}/api/invites`, {
      method: 'POST',
      headers: { cookie: ann.cookie!, 'content-type': 'application/json' },
      body: JSON.stringify({ inviteeEmail: 'during@example.com' }),
    });
    expect(invited.status).toBe(201);

    // A sign-in link cannot be kept anywhere but the queue: the caller hears so at once.
    const link = await answer(`${app.url}/api/login/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bob@example.com' }),
    });
    expect(link.status).toBe(503);
    expect(Number(link.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await link.json()).toMatchObject({ code: 'unavailable' });

    redis = await startRedis(port, dir);
    await eventually(async () => (await answer(`${app.url}/readyz`)).status === 200, 'ready again');
    // The invitation asked for during the outage arrives, once; sign-in works again.
    await eventually(async () => (await inbox('during@example.com')).length > 0, 'invitation');
    const bob = await app.signIn('bob@example.com');
    expect((await bob.get('/api/auth/user')).status).toBe(200);
    expect(await inbox('during@example.com')).toHaveLength(1);
    expect(await mailLinks(app.url, 'bob@example.com')).toHaveLength(1);
  });
});
