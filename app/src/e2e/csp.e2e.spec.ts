import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { CreateInviteResponse } from '@wagers/contracts/api/invites';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { activeBet, propose } from './support/bet-data.ts';
import { launchBrowser, newPerson } from './support/browser.ts';
import { solidPng } from './support/png.ts';
import {
  browserFor,
  caughtUp,
  friendsOverApi,
  reloadUntil,
  toast,
  type ApiPerson,
} from './support/people.ts';

/** What Chromium reports when the Content-Security-Policy stops something on a page. */
interface Violations {
  list: string[];
}

/**
 * Records every CSP violation the page reports, from its first byte: the event the document fires
 * and the console line Chromium writes for each blocked script, style, picture or request.
 */
async function watchViolations(context: BrowserContext, page: Page): Promise<Violations> {
  const violations: Violations = { list: [] };
  await context.exposeFunction('reportCspViolation', (text: string) => {
    violations.list.push(text);
  });
  await context.addInitScript(() => {
    const w = globalThis as unknown as {
      document: { addEventListener(type: string, listener: (event: unknown) => void): void };
      reportCspViolation(text: string): void;
    };
    w.document.addEventListener('securitypolicyviolation', (event) => {
      const e = event as { violatedDirective: string; blockedURI: string; documentURI: string };
      w.reportCspViolation(`${e.documentURI}: ${e.violatedDirective} blocked ${e.blockedURI}`);
    });
  });
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.list.push(message.text());
  });
  return violations;
}

/** Opens a path, checks the policy was sent with it, and waits for what shows it loaded. */
async function visit(page: Page, path: string, loaded: () => Promise<unknown>): Promise<void> {
  const response = await page.goto(path);
  expect(response?.headers()['content-security-policy'], path).toContain("script-src 'self'");
  await loaded();
}

describe('every screen under the Content-Security-Policy', () => {
  let app: TestApp;
  let browser: Browser;
  let ann: ApiPerson;
  let ben: ApiPerson;
  let betId: string;
  let inviteCode: string;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    [ann, ben] = await friendsOverApi(
      app,
      { first: 'Ann', last: 'Archer' },
      { first: 'Ben', last: 'Baker' },
    );
    betId = await activeBet(ann, ben, { title: 'Lakers win tonight' });
    await propose(ann, ben, { title: 'Ben quits coffee for a week' });
    const invite = await ann.client.post<CreateInviteResponse>('/api/invites', {
      inviteeEmail: 'newcomer@example.com',
      message: 'Join me!',
    });
    inviteCode = invite.body.code;
    await caughtUp(ann, ben);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('reports a violation when a page breaks the policy (the watch works)', async () => {
    const context = await newPerson(browser, app.url);
    const page = await context.newPage();
    const violations = await watchViolations(context, page);
    await visit(page, '/privacy', () => page.getByTestId('legal-updated').waitFor());
    await page.evaluate(() => {
      const d = (globalThis as unknown as { document: DocumentLike }).document;
      const script = d.createElement('script');
      script.textContent = 'globalThis.injected = true';
      d.body.appendChild(script);
    });
    await expect.poll(() => violations.list.length).toBeGreaterThan(0);
    expect(violations.list.join('\n')).toContain('script-src');
    await context.close();
  });

  it('signed out: landing, sign-in pages, legal pages, 404, wizard, dev inbox', async () => {
    const context = await newPerson(browser, app.url);
    const page = await context.newPage();
    const violations = await watchViolations(context, page);
    await visit(page, '/', () => page.getByTestId('landing').waitFor());
    await page.getByRole('link', { name: 'Sign in', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Sign in to Wagers' }).waitFor();
    await page.getByLabel('Email').fill('visitor@example.com');
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    for (const path of ['/privacy', '/terms', '/opt-in-proof'])
      await visit(page, path, () => page.getByTestId('legal-updated').waitFor());
    // The invite landing sends a visitor to sign in first.
    await visit(page, `/invite/${inviteCode}`, () =>
      page.getByRole('heading', { name: 'Sign in to Wagers' }).waitFor(),
    );
    await visit(page, '/no/such/page', () =>
      page.getByRole('heading', { name: 'Page Not Found' }).waitFor(),
    );
    await visit(page, '/bets/create', () =>
      page.getByText('Build your bet, sign up to send').waitFor(),
    );
    await visit(page, '/dev/mail', () => page.getByText('visitor@example.com').first().waitFor());
    await visit(page, '/dev/sms', () => page.getByRole('heading').first().waitFor());
    expect(violations.list).toEqual([]);
    await context.close();
  });

  it('signed in: dashboard, friends, wizard, bet details, invite landing, profile with an avatar upload', async () => {
    const { context, page } = await browserFor(browser, app, ann);
    const violations = await watchViolations(context, page);
    await visit(page, '/', () => page.getByTestId('bet-card').first().waitFor());
    for (const tab of ['pending', 'active', 'completed'] as const)
      await page.getByTestId(`tab-${tab}`).click();

    await visit(page, '/friends', () => page.getByTestId('friend-card').first().waitFor());
    await page.getByTestId('tab-requests').click();
    await page.getByTestId('tab-find').click();
    await page.getByPlaceholder('Search by email or name').fill('ben');
    await page.getByTestId('search-result').first().waitFor();
    await page.getByTestId('tab-invite').click();

    await visit(page, '/bets/create', () => page.getByTestId('friend-option').first().waitFor());
    await page.getByText('Ben Baker').click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Title').fill('Ben runs 5 km under 25 minutes');
    await page.getByLabel('Description').fill('At the park run on Saturday, official time.');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Amount (USD)').fill('10');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('bet-review').waitFor();

    await visit(page, `/bets/${betId}`, () => page.getByTestId('resolve-card').waitFor());
    await visit(page, `/invite/${inviteCode}`, () =>
      reloadUntil(page, page.getByTestId('invite-message')),
    );

    await visit(page, '/profile', () => page.getByTestId('profile-card').waitFor());
    await page.getByTestId('avatar-input').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: solidPng(64, [79, 70, 229]),
    });
    await toast(page, 'Avatar updated').waitFor();
    await page.reload();
    await page.getByTestId('header-avatar').locator('img').waitFor();
    expect(violations.list).toEqual([]);
    await context.close();
  });
});

interface DocumentLike {
  createElement(tag: string): { textContent: string };
  body: { appendChild(node: unknown): void };
}
