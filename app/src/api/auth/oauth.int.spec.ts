import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@wagers/contracts/api/user';
import { startTestApp, type TestApp } from '../../test-support/test-app.ts';

/**
 * GitHub cannot be reached from here, so a local server plays its two endpoints the product calls
 * (code -> token, token -> emails) and records what it was sent.
 */
function fakeGitHub(emails: { email: string; primary: boolean; verified: boolean }[]) {
  const tokenRequests: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST' && req.url === '/login/oauth/access_token') {
        const form = new URLSearchParams(body);
        tokenRequests.push(form);
        if (form.get('code') !== 'good-code') {
          res.statusCode = 400;
          res.end(JSON.stringify({ error: 'bad_verification_code' }));
          return;
        }
        res.end(JSON.stringify({ access_token: 'gho_test', token_type: 'bearer' }));
      } else if (req.url === '/user/emails' && req.headers.authorization === 'Bearer gho_test') {
        res.end(JSON.stringify(emails));
      } else {
        res.statusCode = 404;
        res.end('{}');
      }
    });
  });
  return { server, tokenRequests };
}

/** The product, configured for GitHub sign-in against the local stand-in, for one describe block. */
function productWithGitHub(emails: { email: string; primary: boolean; verified: boolean }[]) {
  const fake = fakeGitHub(emails);
  const context = { app: null as unknown as TestApp, tokenRequests: fake.tokenRequests };
  beforeAll(async () => {
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    context.app = await startTestApp({
      env: {
        GITHUB_CLIENT_ID: 'client-1',
        GITHUB_CLIENT_SECRET: 'secret-1',
        GITHUB_BASE_URL: base,
        GITHUB_API_URL: base,
      },
    });
  });
  afterAll(async () => {
    await context.app?.stop();
    fake.server.close();
  });
  return context;
}

describe('sign-in with a provider (GitHub)', () => {
  const github = productWithGitHub([
    { email: 'other@example.com', primary: false, verified: true },
    { email: 'Octo@Example.com', primary: true, verified: true },
  ]);

  it('offers the provider on the sign-in page, keeping the redirect', async () => {
    const page = await github.app.anonymous().get('/api/login?redirect=/friends');
    expect(page.text).toContain('Continue with GitHub');
    expect(page.text).toContain('/api/login/github?redirect=%2Ffriends');
  });

  it('signs in the account that owns the verified primary email', async () => {
    const emailUser = await github.app.signIn('octo@example.com');
    const viaEmail = await emailUser.get<User>('/api/auth/user');

    const client = github.app.anonymous();
    const start = await client.get('/api/login/github?redirect=/friends');
    expect(start.status).toBe(303);
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.pathname).toBe('/login/oauth/authorize');
    expect(authorize.searchParams.get('client_id')).toBe('client-1');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    const state = authorize.searchParams.get('state')!;

    const callback = await client.get(`/api/login/github/callback?code=good-code&state=${state}`);
    expect(callback.status).toBe(303);
    expect(callback.headers.get('location')).toBe('/friends');
    const me = await client.get<User>('/api/auth/user');
    expect(me.body.id).toBe(viaEmail.body.id);
    expect(github.tokenRequests.at(-1)?.get('code_verifier')).toMatch(/^[\w-]{43}$/);

    // The state works once.
    const replay = await github.app
      .anonymous()
      .get(`/api/login/github/callback?code=good-code&state=${state}`);
    expect(replay.status).toBe(400);
  });

  it('refuses a code the provider does not confirm, and a forged state', async () => {
    const client = github.app.anonymous();
    const start = await client.get('/api/login/github');
    const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
    const bad = await client.get(`/api/login/github/callback?code=stolen&state=${state}`);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('did not confirm');
    const forged = await client.get('/api/login/github/callback?code=good-code&state=made-up');
    expect(forged.status).toBe(400);
    expect((await client.get('/api/auth/user')).status).toBe(401);
  });
});

describe('sign-in with a provider account whose email is not verified', () => {
  const github = productWithGitHub([
    { email: 'victim@example.com', primary: true, verified: false },
  ]);

  it('signs nobody in, so an unverified address cannot take over the account that owns it', async () => {
    const owner = await github.app.signIn('victim@example.com');
    expect((await owner.get('/api/auth/user')).status).toBe(200);

    const client = github.app.anonymous();
    const start = await client.get('/api/login/github');
    const state = new URL(start.headers.get('location') ?? '').searchParams.get('state') ?? '';
    const callback = await client.get(`/api/login/github/callback?code=good-code&state=${state}`);
    expect(callback.status).toBe(400);
    expect(callback.text).toContain('no verified email address');
    expect((await client.get('/api/auth/user')).status).toBe(401);
  });
});
