import type { Browser, BrowserContext, Locator, Page, Route } from 'playwright-core';
import { maxPosition } from '@wagers/contracts/position';
import type { User } from '@wagers/contracts/api/user';
import type { ApiClient, TestApp } from '../../test-support/test-app.ts';
import { newPerson, signInThroughBrowser, type Viewport } from './browser.ts';

export interface Name {
  first: string;
  last: string;
}

export interface BrowserPerson {
  context: BrowserContext;
  page: Page;
}

/** A unique address per run, so a rerun against a kept database never meets an old account. */
export function emailFor(name: string): string {
  return `${name.toLowerCase()}.${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}@example.com`;
}

/**
 * Signs up through the pages a newcomer uses: the sign-in form, the link from the development
 * inbox, then the profile to give their name. Ends on the profile page.
 */
export async function signUpInBrowser(
  browser: Browser,
  app: TestApp,
  email: string,
  name: Name,
  options: { viewport?: Viewport; clipboard?: boolean } = {},
): Promise<BrowserPerson> {
  const context = await newPerson(browser, app.url, options.viewport, {
    clipboard: options.clipboard,
  });
  const page = await context.newPage();
  await page.goto('/api/login');
  await signInThroughBrowser(page, email, app.url);
  await page.getByTestId('dashboard').waitFor();
  await nameInProfile(page, name);
  return { context, page };
}

/** Opens the profile through the header avatar and saves first and last name. */
export async function nameInProfile(page: Page, name: Name): Promise<void> {
  await page.getByTestId('header-avatar').click();
  await page.getByLabel('First name').fill(name.first);
  await page.getByLabel('Last name').fill(name.last);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await toast(page, 'Profile updated').waitFor();
  await page.getByTestId('profile-name').getByText(`${name.first} ${name.last}`).waitFor();
}

export interface ApiPerson {
  client: ApiClient;
  user: User;
}

/** Sets a person up over the API (for screens whose subject is not the sign-up itself). */
export async function apiPerson(app: TestApp, name: Name): Promise<ApiPerson> {
  const client = await app.signIn(emailFor(name.first));
  const named = await client.put('/api/user', { firstName: name.first, lastName: name.last });
  if (named.status !== 200)
    throw new Error(`naming ${name.first} failed: ${named.status} ${named.text}`);
  const me = await client.get<User>('/api/auth/user');
  return { client, user: me.body };
}

/** A browser context carrying an API person's session cookie. */
export async function browserFor(
  browser: Browser,
  app: TestApp,
  person: ApiPerson,
  viewport: Viewport = 'desktop',
): Promise<BrowserPerson> {
  const context = await newPerson(browser, app.url, viewport);
  const [cookieName, ...value] = (person.client.cookie ?? '').split('=');
  if (!cookieName) throw new Error('the API person has no session');
  await context.addCookies([{ name: cookieName, value: value.join('='), url: app.url }]);
  return { context, page: await context.newPage() };
}

/**
 * A browser context carrying an API person's session cookie, in which the API calls whose path
 * matches `path` are answered by `answer` (held, refused, dropped) instead of by the product.
 */
export async function browserWithReads(
  browser: Browser,
  app: TestApp,
  person: ApiPerson,
  path: RegExp,
  answer: (route: Route) => Promise<void>,
): Promise<BrowserPerson> {
  const signedIn = await browserFor(browser, app, person);
  await signedIn.page.route((url) => path.test(url.pathname), answer);
  return signedIn;
}

/** A request each way: the second one makes them friends. */
export async function befriendOverApi(a: ApiPerson, b: ApiPerson): Promise<void> {
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const) {
    const sent = await from.client.post('/api/friend-requests', { receiverId: to.user.id });
    if (sent.status >= 300) throw new Error(`friend request failed: ${sent.status} ${sent.text}`);
  }
}

/** Two people set up over the API, one after the other, who are then made friends. */
export async function friendsOverApi(
  app: TestApp,
  first: Name,
  second: Name,
): Promise<[ApiPerson, ApiPerson]> {
  const a = await apiPerson(app, first);
  const b = await apiPerson(app, second);
  await befriendOverApi(a, b);
  return [a, b];
}

/** The toast with this title (one is visible at a time). */
export function toast(page: Page, title: string) {
  return page.getByTestId('toast').filter({ hasText: title });
}

/**
 * What another person did reaches this page when it reloads (the app never polls). The read models
 * follow the log a moment behind, so reload until it shows.
 */
export async function reloadUntil(page: Page, visible: Locator, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await page.reload();
    try {
      await visible.waitFor({ timeout: 1_500 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

const readPaths = ['/api/bets', '/api/stats', '/api/friends', '/api/friend-requests'];

/**
 * Waits until the read models have passed everything these people wrote over the API, so a
 * browser opened afterwards (without their positions) sees it all on its first load.
 */
export async function caughtUp(...people: ApiPerson[]): Promise<void> {
  const newest = people.reduce<string | null>(
    (seen, p) => maxPosition(seen, p.client.position),
    null,
  );
  const reader = people[0]?.client;
  if (!reader || !newest) return;
  reader.position = newest;
  for (let attempt = 0; attempt < 10; attempt++) {
    const answers = await Promise.all(readPaths.map((path) => reader.get(path)));
    if (answers.every((answer) => answer.headers.get('x-wagers-stale') === null)) return;
  }
  throw new Error('the read models did not catch up');
}
