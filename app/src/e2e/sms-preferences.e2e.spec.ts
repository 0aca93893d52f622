import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { seriousViolations } from './support/audit.ts';
import { launchBrowser, screenshot } from './support/browser.ts';
import type { PageGlobals } from './support/page-globals.ts';
import { apiPerson, browserFor, toast } from './support/people.ts';

/** Texts stay off until a number and an explicit consent are on the profile. */
describe('profile: phone number, SMS consent and text notifications', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    const pat = await apiPerson(app, { first: 'Pat', last: 'Quinn' });
    ({ page } = await browserFor(browser, app, pat));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const smsSwitch = () =>
    page.getByRole('checkbox', { name: 'SMS: A friend proposes a bet to you' });
  const consent = () => page.getByRole('checkbox', { name: /Text me the notifications/ });

  it('without consent the SMS switches are off and cannot be used', async () => {
    await page.goto('/profile');
    await expect(consent().getAttribute('aria-checked')).resolves.toBe('false');
    await expect(smsSwitch().isDisabled()).resolves.toBe(true);
    await expect(
      page.getByRole('checkbox', { name: 'Email: A friend proposes a bet to you' }).isChecked(),
    ).resolves.toBe(true);
  });

  it('refuses a number not in international format', async () => {
    await page.getByLabel('Mobile number').fill('415 555 0123');
    await page.getByRole('button', { name: 'Save phone' }).click();
    await page
      .getByRole('alert')
      .getByText(/international format/)
      .waitFor();
    await expect(page.getByLabel('Mobile number').getAttribute('aria-invalid')).resolves.toBe(
      'true',
    );
  });

  it('saves the number with consent, then one kind switched on for texts', async () => {
    await page.getByLabel('Mobile number').fill('+1 415 555 0123');
    await consent().click();
    await page.getByRole('button', { name: 'Save phone' }).click();
    await toast(page, 'Phone number saved').waitFor();
    await page.getByTestId('sms-consent-given').waitFor();
    await expect(page.getByLabel('Mobile number').inputValue()).resolves.toBe('+14155550123');

    await smsSwitch().click();
    await toast(page, 'Text preferences saved').waitFor();
    await expect(smsSwitch().isChecked()).resolves.toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    // From the top, so the sticky header is where a person sees it.
    await page.evaluate(() => (globalThis as unknown as PageGlobals).scrollTo(0, 0));
    await screenshot(page, 'profile-sms-desktop');
  });

  it('removing the number withdraws consent and turns texts off', async () => {
    await page.getByRole('button', { name: 'Remove number' }).click();
    await toast(page, 'Phone number removed').waitFor();
    await expect(page.getByLabel('Mobile number').inputValue()).resolves.toBe('');
    await expect(consent().getAttribute('aria-checked')).resolves.toBe('false');
    await expect(smsSwitch().isDisabled()).resolves.toBe(true);
    await expect(smsSwitch().isChecked()).resolves.toBe(false);
  });
});
