import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test-support/test-app.ts';

const operator = { user: 'ops', password: 'a-long-operator-password' };
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('security headers and /metrics', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({
      env: { OPERATOR_USER: operator.user, OPERATOR_PASSWORD: operator.password },
    });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('puts a Content-Security-Policy and the other headers on pages and API answers', async () => {
    for (const path of ['/', '/bets/create', '/api/auth/user', '/api/login']) {
      const response = await fetch(`${app.url}${path}`, { redirect: 'manual' });
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("default-src 'self'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("object-src 'none'");
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
      // Plain HTTP outside production: no HSTS, no upgrade of requests.
      expect(response.headers.get('strict-transport-security'), path).toBeNull();
      expect(csp, path).not.toContain('upgrade-insecure-requests');
    }
  });

  it("lets no shared cache keep anyone's API answers, and no cache a page with a link's token", async () => {
    const ann = await app.signIn('cache.ann@example.com');
    for (const path of ['/api/auth/user', '/api/bets', '/api/friends', '/api/stats']) {
      const response = await ann.get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control'), path).toBe('private, no-cache');
      expect(response.headers.get('vary') ?? '', path).toMatch(/\bCookie\b/i);
    }
    for (const path of [
      '/api/login',
      '/api/login/verify?token=not-a-token',
      '/api/logout',
      '/api/notifications/unsubscribe?token=not-a-token',
    ]) {
      const response = await fetch(`${app.url}${path}`, { redirect: 'manual' });
      expect(response.headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it('shows /metrics to the operator only', async () => {
    expect((await fetch(`${app.url}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${app.url}/metrics`, {
      headers: { authorization: basic(operator.user, 'not-the-password') },
    });
    expect(wrong.status).toBe(401);
    const scraped = await fetch(`${app.url}/metrics`, {
      headers: { authorization: basic(operator.user, operator.password) },
    });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('wagers_http_request_duration_seconds');
  });
});

describe('in production', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({
      env: {
        NODE_ENV: 'production',
        DEV_INBOX: 'true',
        NOTIFICATION_SIGNING_SECRET: 'a'.repeat(32),
      },
    });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('asks browsers to keep to HTTPS', async () => {
    const response = await fetch(`${app.url}/`);
    expect(response.headers.get('strict-transport-security')).toMatch(/max-age=\d{7,}/);
    expect(response.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
  });

  it('keeps /metrics closed without an operator credential', async () => {
    const response = await fetch(`${app.url}/metrics`);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('wagers_');
  });
});
