import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@wagers/contracts/api/user';
import {
  mailLinks,
  startTestApp,
  waitForMailLink,
  type ApiClient,
  type ApiResponse,
  type TestApp,
} from '../../test-support/test-app.ts';
import { PersonAtProvider } from '@wagers/test-support/oidc/person-at-provider';
import {
  allowProduct,
  providerSettings,
  startStandIns,
  stopStandIns,
  type StandIns,
} from '@wagers/test-support/oidc/settings';
import type { ProviderKind, StandInAccount } from '@wagers/test-support/oidc/stand-in';

let app: TestApp;
let standIns: StandIns;
beforeAll(async () => {
  standIns = await startStandIns();
  app = await startTestApp({ env: providerSettings(standIns) });
  allowProduct(standIns, app.url);
});
afterAll(async () => {
  await app?.stop();
  await stopStandIns(standIns);
});

function account(kind: ProviderKind, person: StandInAccount): StandInAccount {
  standIns[kind].accounts.set(person.sub, person);
  return person;
}

const pathOf = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

/** Clicks "Continue with …" and signs in at the provider; returns where that leaves the browser. */
async function beginAt(client: ApiClient, kind: ProviderKind, sub: string, redirect?: string) {
  const start = await client.get(
    `/api/login/${kind}${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ''}`,
  );
  expect(start.status).toBe(303);
  const authorization = start.headers.get('location') ?? '';
  const answer = await new PersonAtProvider(standIns[kind].url).authorize(authorization, sub);
  return { authorization: new URL(authorization), answer };
}

/** Follows the provider's answer back to the product, as the browser would. */
async function returnTo(client: ApiClient, answer: Awaited<ReturnType<typeof beginAt>>['answer']) {
  if (answer.method === 'GET') return client.get(pathOf(answer.url));
  // form_post comes from the provider's site: no cookie of ours comes along.
  const posted = await fetch(answer.url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: answer.form,
  });
  expect(posted.status).toBe(303);
  return client.get(posted.headers.get('location') ?? '');
}

async function signInWith(client: ApiClient, kind: ProviderKind, sub: string, redirect?: string) {
  const { answer } = await beginAt(client, kind, sub, redirect);
  return returnTo(client, answer);
}

const me = async (client: ApiClient) => (await client.get<User>('/api/auth/user')).body;

function expectRefusal(page: ApiResponse, kind: ProviderKind, words: string) {
  expect(page.status).toBe(400);
  expect(page.text).toContain(words);
  expect(page.text).toContain(`href="/api/login/${kind}`);
}

describe('sign-in with providers against a real OpenID provider', () => {
  it('offers every configured provider on the sign-in page, keeping the redirect', async () => {
    const page = await app.anonymous().get('/api/login?redirect=/friends');
    for (const [name, id] of [
      ['Google', 'google'],
      ['GitHub', 'github'],
      ['X', 'x'],
      ['Apple', 'apple'],
    ])
      expect(page.text).toContain(
        `href="/api/login/${id}?redirect=%2Ffriends">Continue with ${name}`,
      );
  });

  it('Google: signs in the owner of the verified email, with state, nonce and PKCE', async () => {
    const emailUser = await app.signIn('gina@example.com');
    account('google', { sub: 'g-gina', email: 'Gina@Example.com', emailVerified: true });
    const client = app.anonymous();
    const { authorization, answer } = await beginAt(client, 'google', 'g-gina', '/friends');
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('nonce')).toMatch(/^[\w-]{43}$/);
    expect(authorization.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
    const back = await returnTo(client, answer);
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe('/friends');
    expect((await me(client)).id).toBe((await me(emailUser)).id);
  });

  it('the same verified email through two providers is one account', async () => {
    account('github', { sub: '4242', email: 'paul@example.com', emailVerified: true });
    account('apple', { sub: 'apple-paul', email: 'paul@example.com', emailVerified: true });
    const viaGitHub = app.anonymous();
    expect((await signInWith(viaGitHub, 'github', '4242')).status).toBe(303);
    const viaApple = app.anonymous();
    expect((await signInWith(viaApple, 'apple', 'apple-paul')).status).toBe(303);
    const ids = [(await me(viaGitHub)).id, (await me(viaApple)).id];
    expect(ids[0]).toBeDefined();
    expect(ids[1]).toBe(ids[0]);
    expect((await me(await app.signIn('paul@example.com'))).id).toBe(ids[0]);
  });

  it('Apple: form_post, a signed client secret, and the name sent on the first sign-in kept', async () => {
    account('apple', {
      sub: 'apple-ada',
      email: 'ada@privaterelay.example',
      emailVerified: true,
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    const first = app.anonymous();
    const { authorization, answer } = await beginAt(first, 'apple', 'apple-ada');
    expect(authorization.searchParams.get('response_mode')).toBe('form_post');
    expect(answer.method).toBe('POST');
    expect((await returnTo(first, answer)).status).toBe(303);
    expect(await me(first)).toMatchObject({
      email: 'ada@privaterelay.example',
      firstName: 'Ada',
      lastName: 'Lovelace',
    });

    // Apple sends the name once; the next sign-in comes without it and changes nothing.
    const again = app.anonymous();
    const second = await beginAt(again, 'apple', 'apple-ada');
    expect(second.answer.method === 'POST' && second.answer.form.has('user')).toBe(false);
    expect((await returnTo(again, second.answer)).status).toBe(303);
    expect(await me(again)).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
  });

  it('X without an email: asks for one, confirms it by link, and remembers the X account', async () => {
    account('x', { sub: 'x-xavier' });
    const client = app.anonymous();
    const { authorization, answer } = await beginAt(client, 'x', 'x-xavier', '/friends');
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    const asked = await returnTo(client, answer);
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('X did not share an email address');
    expect((await client.get('/api/auth/user')).status).toBe(401);

    const pending = /name="pending" value="([^"]+)"/.exec(asked.text)?.[1];
    const sent = await client.post('/api/login/x/email', {
      pending,
      email: 'xavier@example.com',
    });
    expect(sent.text).toContain('Check your email');
    expect((await client.get('/api/auth/user')).status).toBe(401);
    const link = await waitForMailLink(app.url, 'xavier@example.com');
    const landing = await client.get(pathOf(link));
    expect(landing.text).toContain('Your X account will be linked to it');
    const confirmed = await client.confirmLink(link);
    expect(confirmed.headers.get('location')).toBe('/friends');
    const xavier = await me(client);
    expect(xavier.email).toBe('xavier@example.com');

    const later = app.anonymous();
    expect((await signInWith(later, 'x', 'x-xavier')).status).toBe(303);
    expect((await me(later)).id).toBe(xavier.id);
  });

  it("links an X account only in the browser that asked for the link, never a stranger's", async () => {
    // Someone signs in with an X account that has no email, and types another person's address.
    account('x', { sub: 'x-mallory' });
    const mallory = app.anonymous();
    const asked = await signInWith(mallory, 'x', 'x-mallory');
    const pending = /name="pending" value="([^"]+)"/.exec(asked.text)?.[1];
    const before = new Set(await mailLinks(app.url, 'vera@example.com'));
    const vera = await app.signIn('vera@example.com');
    const seen = new Set([...before, ...(await mailLinks(app.url, 'vera@example.com'))]);
    expect(
      (await mallory.post('/api/login/x/email', { pending, email: 'vera@example.com' })).text,
    ).toContain('Check your email');

    // The owner of the address opens the link in her own browser: it says what it does not do.
    const link = await waitForMailLink(app.url, 'vera@example.com', seen);
    const landing = await vera.get(pathOf(link));
    expect(landing.status).toBe(200);
    expect(landing.text).toContain('Signing in here links no X account');
    expect(landing.text).not.toContain('will be linked');
    const confirmed = await vera.confirmLink(link);
    expect(confirmed.status).toBe(303);
    expect((await me(vera)).email).toBe('vera@example.com');

    // The X account was not linked: signing in with it asks for an email again.
    const again = app.anonymous();
    const next = await signInWith(again, 'x', 'x-mallory');
    expect(next.status).toBe(200);
    expect(next.text).toContain('X did not share an email address');
    expect((await again.get('/api/auth/user')).status).toBe(401);
  });

  it('X with a confirmed email signs in straight away', async () => {
    account('x', { sub: 'x-yara', email: 'yara@example.com', emailVerified: true });
    const client = app.anonymous();
    expect((await signInWith(client, 'x', 'x-yara')).status).toBe(303);
    expect((await me(client)).email).toBe('yara@example.com');
  });

  it('refuses for now the address of an account just deleted, until it is released', async () => {
    const owner = await app.signIn('gone.soon@example.com');
    account('google', { sub: 'g-gone', email: 'gone.soon@example.com', emailVerified: true });
    const other = await app.signIn('stays.put@example.com');
    expect((await me(other)).email).toBe('stays.put@example.com');
    // The erasure is held back.
    await app.holdingFollowers(async () => {
      const deleted = await owner.request('DELETE', '/api/user', {
        confirmEmail: 'gone.soon@example.com',
      });
      expect(deleted.status, deleted.text).toBe(200);
      const client = app.anonymous();
      const page = await signInWith(client, 'google', 'g-gone');
      expect(page.status).toBe(503);
      expect(page.headers.get('retry-after')).toBe('30');
      expect(page.text).toContain('belonged to an account that was just deleted');
      expect(page.text).toContain('href="/api/login/google');
      expect((await client.get('/api/auth/user')).status).toBe(401);
      // A browser signed in as someone else stays signed in as them.
      expect((await signInWith(other, 'google', 'g-gone')).status).toBe(503);
      expect((await me(other)).email).toBe('stays.put@example.com');
    });
    await app.settled();
    // Released: the same address now signs up as a new account.
    const again = app.anonymous();
    expect((await signInWith(again, 'google', 'g-gone')).status).toBe(303);
    expect((await me(again)).email).toBe('gone.soon@example.com');
  });

  it('refuses an unverified email, so it cannot take over the account that owns it', async () => {
    const owner = await app.signIn('victim@example.com');
    account('google', { sub: 'g-mallory', email: 'victim@example.com', emailVerified: false });
    account('github', { sub: '666', email: 'victim@example.com', emailVerified: false });
    for (const [kind, sub] of [
      ['google', 'g-mallory'],
      ['github', '666'],
    ] as const) {
      const client = app.anonymous();
      const page = await signInWith(client, kind, sub);
      expectRefusal(page, kind, 'no verified email address');
      expect((await client.get('/api/auth/user')).status).toBe(401);
    }
    expect((await owner.get('/api/auth/user')).status).toBe(200);
  });

  it('refuses a replayed callback, with a page that offers to try again', async () => {
    account('google', { sub: 'g-rita', email: 'rita@example.com', emailVerified: true });
    const client = app.anonymous();
    const { answer } = await beginAt(client, 'google', 'g-rita');
    expect((await returnTo(client, answer)).status).toBe(303);
    const replay = await returnTo(client, answer);
    expectRefusal(replay, 'google', 'already used');
    expect(replay.text).toContain('Try again with Google');

    // The same for Apple's posted answer: a second post of it finds nothing to keep.
    account('apple', { sub: 'apple-rita', email: 'rita@example.com', emailVerified: true });
    const viaApple = await beginAt(app.anonymous(), 'apple', 'apple-rita');
    const form = viaApple.answer.method === 'POST' ? viaApple.answer.form : null;
    const post = () =>
      fetch(viaApple.answer.url, { method: 'POST', redirect: 'manual', body: form ?? undefined });
    expect((await post()).status).toBe(303);
    const repost = await post();
    expect(repost.status).toBe(400);
    expect(await repost.text()).toContain('already used');
  });

  it('refuses a wrong state, a tampered code, and a callback opened in another browser', async () => {
    account('github', { sub: '777', email: 'tess@example.com', emailVerified: true });
    const client = app.anonymous();
    const { answer } = await beginAt(client, 'github', '777');
    const callback = new URL(answer.url);

    const wrongState = new URL(callback);
    wrongState.searchParams.set('state', 'made-up');
    expectRefusal(await client.get(pathOf(wrongState.href)), 'github', 'already used');

    // The one who began the sign-in is not the one who finishes it: login CSRF.
    expectRefusal(await app.anonymous().get(pathOf(callback.href)), 'github', 'another browser');

    const tampered = new URL(callback);
    tampered.searchParams.set('code', 'stolen-code');
    expectRefusal(await client.get(pathOf(tampered.href)), 'github', 'did not confirm');
    expect((await client.get('/api/auth/user')).status).toBe(401);
  });
});
