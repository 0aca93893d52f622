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

  it("answers a newcomer's sign-in once the account exists, so their first call finds it", async () => {
    const browser = app.anonymous();
    const link = await browser.askSignInLink('first.call@example.com');
    let answered = false;
    const signingIn = await app.holdingFollowers(async () => {
      // The process manager that registers the account follows the log, held back here.
      const confirming = browser.confirmLink(link).finally(() => {
        answered = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(answered).toBe(false);
      return { confirming };
    });
    const confirmed = await signingIn.confirming;
    expect(confirmed.status, confirmed.text).toBe(303);
    // Read from the account's own stream, the very next call: no "No such user".
    const phone = await browser.get('/api/user/phone');
    expect(phone.status, phone.text).toBe(200);
    expect(phone.body).toEqual({ phone: null, smsConsent: false, consentedAt: null });
    const named = await browser.put<User>('/api/user', { firstName: 'First', lastName: 'Call' });
    expect(named.status, named.text).toBe(200);
    expect(named.body).toMatchObject({ email: 'first.call@example.com', firstName: 'First' });
  });

  it('honours a redirect on this site only', async () => {
    const client = app.anonymous();
    await client.post('/api/login/email', {
      email: 'redirect@example.com',
      redirect: '/bets/create',
    });
    const link = await waitForMailLink(app.url, 'redirect@example.com');
    const followed = await client.confirmLink(link);
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
    const link = await waitForMailLink(app.url, 'once@example.com');
    expect((await client.confirmLink(link)).status).toBe(303);
    const second = await app.anonymous().get(link.replace(app.url, ''));
    expect(second.status).toBe(400);
    expect(second.text).toContain('expired or was already used');
    const token = new URL(link).searchParams.get('token');
    const secondPost = await app.anonymous().post('/api/login/verify', { token });
    expect(secondPost.status).toBe(400);
  });

  it('sends five links an address per 15 minutes, then says when to ask again', async () => {
    const client = app.anonymous();
    for (let i = 0; i < 5; i++) {
      expect((await client.post('/api/login/email', { email: 'often@example.com' })).status).toBe(
        202,
      );
    }
    const refused = await client.post('/api/login/email', { email: 'often@example.com' });
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('Too many sign-in links');
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(15 * 60 - 60);
    expect(wait).toBeLessThanOrEqual(15 * 60);

    // The oldest link of the window is 14 minutes old: a minute to wait, from the sign-in form too.
    const pg = await import('pg');
    const db = new pg.default.Client({ connectionString: app.databaseUrl });
    await db.connect();
    await db.query(
      `UPDATE login_tokens SET created_at = created_at - interval '14 minutes'
        WHERE email = 'often@example.com'`,
    );
    await db.end();
    const form = await fetch(`${app.url}/api/login/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=often%40example.com',
    });
    expect(form.status).toBe(429);
    expect(await form.text()).toContain('Too many sign-in links');
    const waitNow = Number(form.headers.get('retry-after'));
    expect(waitNow).toBeGreaterThan(0);
    expect(waitNow).toBeLessThanOrEqual(60);
  });

  it('holds the five-link limit when many ask for the same address at once', async () => {
    const asked = await Promise.all(
      Array.from({ length: 12 }, () =>
        app.anonymous().post('/api/login/email', { email: 'flood@example.com' }),
      ),
    );
    const statuses = asked.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array<number>(5).fill(202), ...Array<number>(7).fill(429)]);
    const pg = await import('pg');
    const db = new pg.default.Client({ connectionString: app.databaseUrl });
    await db.connect();
    const stored = await db.query("SELECT 1 FROM login_tokens WHERE email = 'flood@example.com'");
    await db.end();
    expect(stored.rowCount).toBe(5);
  });

  it('refuses an expired link', async () => {
    const client = app.anonymous();
    await client.post('/api/login/email', { email: 'late@example.com' });
    const link = await waitForMailLink(app.url, 'late@example.com');
    const pg = await import('pg');
    const db = new pg.default.Client({ connectionString: app.databaseUrl });
    await db.connect();
    await db.query(
      `UPDATE login_tokens SET expires_at = now() - interval '1 second' WHERE email = 'late@example.com'`,
    );
    await db.end();
    expect((await client.confirmLink(link)).status).toBe(400);
  });

  it('sets an httpOnly, SameSite=Lax session cookie and ends it on logout', async () => {
    const client = app.anonymous();
    await client.post('/api/login/email', { email: 'cookie@example.com' });
    const link = await waitForMailLink(app.url, 'cookie@example.com');
    const followed = await client.confirmLink(link);
    const cookie = followed.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect((await client.get('/api/auth/user')).status).toBe(200);
    const out = await client.post('/api/logout');
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/');
    expect((await client.get('/api/auth/user')).status).toBe(401);
  });

  it('uses nothing when a link is only opened: a POST from its page signs in', async () => {
    const client = app.anonymous();
    await client.post('/api/login/email', { email: 'scanned@example.com' });
    const link = await waitForMailLink(app.url, 'scanned@example.com');
    // A mail scanner fetches the link first; the person's click must still work.
    const scanned = await app.anonymous().get(link.replace(app.url, ''));
    expect(scanned.status).toBe(200);
    expect(scanned.text).toContain('Sign in as scanned@example.com');
    expect(scanned.text).toContain('method="post" action="/api/login/verify"');
    expect(scanned.headers.get('set-cookie')).toBeNull();
    expect((await client.confirmLink(link)).status).toBe(303);
    expect((await client.get<User>('/api/auth/user')).body.email).toBe('scanned@example.com');
  });

  it('does not switch an open session to the account of a link someone else sent', async () => {
    const victim = await app.signIn('victim.csrf@example.com');
    await app.settled();
    const attacker = app.anonymous();
    await attacker.post('/api/login/email', { email: 'attacker.csrf@example.com' });
    const attackerLink = await waitForMailLink(app.url, 'attacker.csrf@example.com');

    const opened = await victim.get(attackerLink.replace(app.url, ''));
    expect(opened.status).toBe(200);
    expect(opened.text).toContain('You are signed in as <strong>victim.csrf@example.com</strong>');
    expect(opened.text).toContain('Sign in as attacker.csrf@example.com');
    const me = await victim.get<User>('/api/auth/user');
    expect(me.body.email).toBe('victim.csrf@example.com');

    // Confirming on the page is the person's choice: the old session ends, the new one begins.
    const oldCookie = victim.cookie;
    expect((await victim.confirmLink(attackerLink)).status).toBe(303);
    expect((await victim.get<User>('/api/auth/user')).body.email).toBe('attacker.csrf@example.com');
    const stale = app.anonymous();
    stale.cookie = oldCookie;
    expect((await stale.get('/api/auth/user')).status).toBe(401);
  });

  it.each([
    ['a page of this site', { 'sec-fetch-site': 'same-origin' }],
    ['the address bar or a bookmark', { 'sec-fetch-site': 'none' }],
    ['a script that says nothing of where it comes from', {}],
  ])('logs out when the logout address is opened from %s', async (_from, headers) => {
    const client = await app.signIn('opens.logout@example.com');
    const out = await client.request('GET', '/api/logout', undefined, headers);
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/');
    expect((await client.get('/api/auth/user')).status).toBe(401);
  });

  it.each([
    ['a link or image on another site', { 'sec-fetch-site': 'cross-site' }],
    ['a link on a sibling subdomain', { 'sec-fetch-site': 'same-site' }],
    ['a prefetch', { 'sec-fetch-site': 'none', 'sec-purpose': 'prefetch;prerender' }],
    // A browser too old to send Sec-Fetch-Site (Safari before 16.4): a link sends its Referer.
    [
      'a link on another site, in a browser without Sec-Fetch-Site',
      { referer: 'https://evil.example/page' },
    ],
    [
      'another site, in a browser that sends Origin but not Sec-Fetch-Site',
      { origin: 'https://evil.example' },
    ],
  ])(
    'only asks, with a button that posts, when %s opens the logout address',
    async (_from, headers) => {
      const client = await app.signIn('stays@example.com');
      const asked = await client.request('GET', '/api/logout', undefined, headers);
      expect(asked.status).toBe(200);
      expect(asked.text).toContain('Log out of Wagers?');
      expect(asked.text).toContain('method="post" action="/api/logout"');
      expect((await client.get('/api/auth/user')).status).toBe(200);
      expect((await client.post('/api/logout')).status).toBe(303);
      expect((await client.get('/api/auth/user')).status).toBe(401);
    },
  );

  it('logs out a browser without Sec-Fetch-Site when its Referer or Origin is this site', async () => {
    const own: Record<string, string>[] = [
      { referer: `${app.url}/bets/create` },
      { origin: app.url },
    ];
    for (const headers of own) {
      const client = await app.signIn('older.browser@example.com');
      const out = await client.request('GET', '/api/logout', undefined, headers);
      expect(out.status).toBe(303);
      expect((await client.get('/api/auth/user')).status).toBe(401);
    }
  });

  it('changes nothing on a HEAD of the logout address', async () => {
    const client = await app.signIn('heads@example.com');
    const head = await fetch(`${app.url}/api/logout`, {
      method: 'HEAD',
      redirect: 'manual',
      headers: { cookie: client.cookie ?? '', 'sec-fetch-site': 'same-origin' },
    });
    expect(head.status).toBe(200);
    expect((await client.get('/api/auth/user')).status).toBe(200);
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
    // Live pages the users projector applied, as /metrics counts them (since the process began).
    const usersPages = async () => {
      const text = (await client.get('/metrics')).text;
      const count = /^wagers_projection_live_page_events_count\{projector="users"\} (\d+)$/m.exec(
        text,
      );
      return Number(count?.[1] ?? 0);
    };
    const pagesBefore = await usersPages();
    await client.signIn('metrics@example.com');
    await expect.poll(usersPages).toBeGreaterThan(pagesBefore);
    const metrics = await client.get('/metrics');
    expect(metrics.text).toMatch(
      /^wagers_projection_live_page_seconds_bucket\{le="\+Inf",projector="users"\} [1-9]/m,
    );
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
