import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { launchBrowser, newPerson, screenshot, signInThroughBrowser } from './support/browser.ts';

describe('a newcomer signs in by email link', () => {
  let app: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    app = await startTestApp();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('goes from the landing page to the dashboard and back out', async () => {
    const context = await newPerson(browser, app.url);
    const page = await context.newPage();
    await page.goto('/');
    await screenshot(page, 'landing-desktop');
    await page.getByRole('link', { name: 'Get started', exact: true }).first().click();
    await page.waitForURL(/\/api\/login/);
    await screenshot(page, 'sign-in-desktop');

    await signInThroughBrowser(page, 'zoe.newcomer@example.com', app.url);
    await page.waitForURL(`${app.url}/`);
    await page.getByText('No bets yet').waitFor();
    const avatar = page.getByRole('link', { name: /profile/i });
    await expect(avatar.textContent()).resolves.toContain('Z');
    await screenshot(page, 'dashboard-empty-desktop');

    await page.goto('/profile');
    await page.getByRole('button', { name: 'Log Out' }).click();
    await page.waitForURL(`${app.url}/`);
    await page.getByRole('link', { name: 'Get started', exact: true }).first().waitFor();
    await context.close();
  });
});
