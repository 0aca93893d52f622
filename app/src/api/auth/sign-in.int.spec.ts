import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@wagers/contracts/api/user';
import { startTestApp, waitForMailLink, type TestApp } from '../../test-support/test-app.ts';

describe('email sign-in', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('shows a sign-in page with an email field', async () => {
    const page = await app.anonymous().get('/api/login?redirect=/friends');
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="email"');
    expect(page.text).toContain('value="/friends"');
  });

  it('registers a newcomer on the first link, and the same account on the next', async () => {
    const first = await app.signIn('Newcomer@Example.com');
    const me = await first.get<User>('/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      email: 'newcomer@example.com',
      firstName: null,
      lastName: null,
    });

    const again = await app.signIn('newcomer@example.com');
    const meAgain = await again.get<User>('/api/auth/user');
    expect(meAgain.body.id).toBe(me.body.id);
  });

  it('honours a redirect on this site only', async () => {
    const client = app.anonymous();
    await client.post('/api/login/email', {
      email: 'redirect@example.com',
      redirect: '/bets/create',
    });
    const link = await waitForMailLink(app.url, 'redirect@example.com');
    const followed = await client.get(link.replace(app.url, ''));
    expect(followed.status).toBe(303);
    expect(followed.headers.get('location')).toBe('/bets/create');

    const offsite = await client.post('/api/login/email', {
      email: 'redirect@example.com',
      redirect: '//evil.example',
    });
    expect(offsite.status).toBe(400);
    expect(offsite.body).toMatchObject({ errors: [{ field: 'redirect' }] });
  });

  it('lets a link work once only', async () => {
    const client = app.anonymous();
    await client.post('/api/login/email', { email: 'once@example.com' });
    const link = (await waitForMailLink(app.url, 'once@example.com')).replace(app.url, '');
    expect((await client.get(link)).status).toBe(303);
    const second = await app.anonymous().get(link);
    expect(second.status).toBe(400);
    expect(second.text).toContain('expired or was already used');
  });

  it('refuses an expired link', async () => {
    const client = app.anonymous();
    await client.post('/api/login/email', { email: 'late@example.com' });
    const link = (await waitForMailLink(app.url, 'late@example.com')).replace(app.url, '');
    const pg = await import('pg');
    const db = new pg.default.Client({ connectionString: app.databaseUrl });
    await db.connect();
    await db.query(
      `UPDATE login_tokens SET expires_at = now() - interval '1 second' WHERE email = 'late@example.com'`,
    );
    await db.end();
    expect((await client.get(link)).status).toBe(400);
  });

  it('sets an httpOnly, SameSite=Lax session cookie and ends it on logout', async () => {
    const client = app.anonymous();
    await client.post('/api/login/email', { email: 'cookie@example.com' });
    const link = (await waitForMailLink(app.url, 'cookie@example.com')).replace(app.url, '');
    const followed = await client.get(link);
    const cookie = followed.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect((await client.get('/api/auth/user')).status).toBe(200);
    const out = await client.get('/api/logout');
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/');
    expect((await client.get('/api/auth/user')).status).toBe(401);
  });

  it('rejects a bad email with the field named, and writes nothing', async () => {
    const response = await app.anonymous().post('/api/login/email', { email: 'not-an-email' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ errors: [{ field: 'email' }] });
  });

  it('never writes the token to the event log', async () => {
    const pg = await import('pg');
    const db = new pg.default.Client({ connectionString: app.databaseUrl });
    await db.connect();
    const tokens = await db.query<{ token_hash: string }>('SELECT token_hash FROM login_tokens');
    const events = await db.query<{ body: string }>(
      `SELECT data::text || metadata::text AS body FROM es_events`,
    );
    await db.end();
    expect(events.rows.length).toBeGreaterThan(0);
    const mails = (await (await fetch(`${app.url}/api/dev/mail`)).json()) as { text: string }[];
    const rawTokens = mails
      .map((m) => /token=([\w-]+)/.exec(m.text)?.[1])
      .filter(Boolean) as string[];
    expect(rawTokens.length).toBeGreaterThan(0);
    for (const row of events.rows) {
      for (const token of rawTokens) expect(row.body).not.toContain(token);
      for (const t of tokens.rows) expect(row.body).not.toContain(t.token_hash);
    }
  });
});

describe('operations', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('answers health, readiness and metrics, with a correlation id on every response', async () => {
    const client = app.anonymous();
    expect((await client.get('/healthz')).status).toBe(200);
    const ready = await client.get<{ checks: Record<string, string> }>('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ postgres: 'ok', redis: 'ok' });
    await client.signIn('metrics@example.com');
    const metrics = await client.get('/metrics');
    expect(metrics.text).toContain('wagers_projection_lag_events{projector="users"}');
    expect(metrics.text).toContain('wagers_queue_jobs{state="waiting"}');
    expect(metrics.text).toMatch(
      /wagers_http_request_duration_seconds_count\{method="POST",route="\/api\/login\/email",status="202"\}/,
    );
    expect(ready.headers.get('x-correlation-id')).toMatch(/^[\w-]{8,}$/);
  });
});

describe('the web app', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: { SUPPORT_EMAIL: 'help@wagers.test', PRIVACY_EMAIL: 'privacy@wagers.test' },
    });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('is served for every page path, carrying the configured mailboxes', async () => {
    const page = await app.anonymous().get('/friends');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<div id="root">');
    expect(page.text).toContain('<meta name="wagers:support-email" content="help@wagers.test" />');
    expect(page.text).toContain(
      '<meta name="wagers:privacy-email" content="privacy@wagers.test" />',
    );
    const missingApi = await app.anonymous().get('/api/no-such-thing');
    expect(missingApi.status).toBe(404);
    expect(missingApi.headers.get('content-type')).toContain('application/problem+json');
  });
});
