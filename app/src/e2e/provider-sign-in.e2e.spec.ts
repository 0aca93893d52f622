import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  allowProduct,
  providerSettings,
  startStandIns,
  stopStandIns,
  type StandIns,
} from '@wagers/test-support/oidc/settings';
import { startTestApp, waitForMailLink, type TestApp } from '../test-support/test-app.ts';
import { launchBrowser, newPerson, screenshot } from './support/browser.ts';

/** On the stand-in provider's own pages: its login form, then its consent page. */
async function signInAtProvider(page: Page, login: string) {
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

describe('signing in with a provider in the browser', () => {
  let app: TestApp;
  let standIns: StandIns;
  let browser: Browser;
  beforeAll(async () => {
    standIns = await startStandIns();
    app = await startTestApp({ env: providerSettings(standIns) });
    allowProduct(standIns, app.url);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await stopStandIns(standIns);
  });

  it('Apple: the answer is posted back, and the name Apple sends lands on the profile', async () => {
    standIns.apple.accounts.set('apple-amy', {
      sub: 'apple-amy',
      email: 'amy@privaterelay.example',
      emailVerified: true,
      firstName: 'Amy',
      lastName: 'Apfel',
    });
    const context = await newPerson(browser, app.url);
    const page = await context.newPage();
    await page.goto('/api/login?redirect=/profile');
    await screenshot(page, 'sign-in-providers-desktop');
    await page.getByRole('link', { name: 'Continue with Apple' }).click();
    await signInAtProvider(page, 'apple-amy');
    await page.waitForURL(`${app.url}/profile`);
    await expect(page.getByTestId('profile-name').textContent()).resolves.toBe('Amy Apfel');
    await context.close();
  });

  it('X without an email: the person gives one and confirms it from the inbox', async () => {
    standIns.x.accounts.set('x-xena', { sub: 'x-xena' });
    const context = await newPerson(browser, app.url);
    const page = await context.newPage();
    await page.goto('/api/login');
    await page.getByRole('link', { name: 'Continue with X' }).click();
    await signInAtProvider(page, 'x-xena');
    await page.getByText('X did not share an email address').waitFor();
    await page.getByLabel('Email').fill('xena@example.com');
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await page.goto(await waitForMailLink(app.url, 'xena@example.com'));
    await page.getByRole('button', { name: 'Sign in as xena@example.com' }).click();
    await page.waitForURL(`${app.url}/`);
    await page.getByText('No bets yet').waitFor();

    // The next time, X alone is enough.
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Log Out' }).click();
    await page.waitForURL(`${app.url}/`);
    await page.goto('/api/login');
    await page.getByRole('link', { name: 'Continue with X' }).click();
    await page.waitForURL(`${app.url}/`);
    await page.getByText('No bets yet').waitFor();
    await context.close();
  });

  it('a sign-in answer opened twice shows a page that offers to try again', async () => {
    standIns.google.accounts.set('g-gus', {
      sub: 'g-gus',
      email: 'gus@example.com',
      emailVerified: true,
    });
    const context = await newPerson(browser, app.url);
    const page = await context.newPage();
    const callbacks: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/login/google/callback')) callbacks.push(request.url());
    });
    await page.goto('/api/login');
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await signInAtProvider(page, 'g-gus');
    await page.waitForURL(`${app.url}/`);
    await page.goto(callbacks[0] ?? '');
    await page.getByText('Sign-in did not finish').waitFor();
    await screenshot(page, 'sign-in-replayed-desktop');
    await page.getByRole('link', { name: 'Try again with Google' }).click();
    // Still signed in at Google: straight back to the dashboard.
    await page.waitForURL(`${app.url}/`);
    await context.close();
  });
});
