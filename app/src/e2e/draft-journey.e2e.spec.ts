import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { launchBrowser, newPerson, signInThroughBrowser } from './support/browser.ts';
import type { PageGlobals } from './support/page-globals.ts';
import { emailFor, toast } from './support/people.ts';
import { fillTerms, next, sendBet, wizardStep } from './support/wizard.ts';

function storedDraft(page: Page): Promise<string | null> {
  return page.evaluate(() =>
    (globalThis as unknown as PageGlobals).localStorage.getItem('betDraft'),
  );
}

/** A visitor builds a bet before having an account; the draft waits on the device through sign-up. */
describe('the signed-out wizard draft survives signing in', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    page = await (await newPerson(browser, app.url)).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('a visitor builds a bet and is sent to sign in with the draft kept', async () => {
    await page.goto('/bets/create');
    await page.getByText('Build your bet, sign up to send').waitFor();
    await expect(page.getByRole('tab', { name: 'Select Friend' }).count()).resolves.toBe(0);
    await page.getByLabel('Email address').fill('rival@example.com');
    await next(page);
    await fillTerms(page, {
      title: 'Pancakes flipped without a spatula',
      description: 'Ten in a row, witnesses required.',
      custom: 'Loser washes up',
    });
    await page.getByRole('button', { name: 'Sign In to Send Invitation' }).click();

    await page.waitForURL((url) => url.pathname === '/api/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/bets/create');
    const draft = JSON.parse((await storedDraft(page)) ?? '{}') as Record<string, unknown>;
    expect(draft).toMatchObject({
      step: 4,
      isInviteMode: true,
      inviteeEmail: 'rival@example.com',
      title: 'Pancakes flipped without a spatula',
      wagerType: 'custom',
      wagerDescription: 'Loser washes up',
      validationMode: 'both',
    });
  });

  it('after signing in the draft is back on the review step, and sending it clears it', async () => {
    await signInThroughBrowser(page, emailFor('Vic'), app.url);
    await page.waitForURL((url) => url.pathname === '/bets/create');
    await wizardStep(page).getByText('Step 4 of 4').waitFor();
    const review = page.getByTestId('bet-review');
    await review.getByText('Invite: rival@example.com').waitFor();
    await review.getByText('Pancakes flipped without a spatula').waitFor();
    await review.getByText('Loser washes up').waitFor();

    await sendBet(page, 'Bet created with invite!');
    await page.getByTestId('bet-summary').getByText('Pancakes flipped without a spatula').waitFor();
    await expect(storedDraft(page)).resolves.toBeNull();
    await page.goto('/bets/create');
    await wizardStep(page).getByText('Step 1 of 4').waitFor();
    await page.getByRole('tab', { name: 'Select Friend', selected: true }).waitFor();
  });

  it('a draft that cannot be read is ignored', async () => {
    await page.evaluate(() =>
      (globalThis as unknown as PageGlobals).localStorage.setItem('betDraft', '{not json'),
    );
    await page.goto('/bets/create');
    await wizardStep(page).getByText('Step 1 of 4').waitFor();
    await page.getByRole('tab', { name: 'Select Friend' }).waitFor();
    await expect(toast(page, 'Error').count()).resolves.toBe(0);
  });

  it('a send whose answer was lost, sent again after a reload, makes one bet, not two', async () => {
    const betsNow = () =>
      page.evaluate(async () => {
        const response = await fetch('/api/bets', { credentials: 'include' });
        return ((await response.json()) as unknown[]).length;
      });
    const before = await betsNow();
    await page.goto('/bets/create');
    await page.getByRole('tab', { name: 'Invite New User' }).click();
    await page.getByLabel('Email address').fill('lost.answer@example.com');
    await next(page);
    await fillTerms(page, {
      title: 'Kite up for an hour',
      description: 'Beach, Sunday, no touching the ground.',
      custom: 'Ice cream',
    });
    // The request reaches the server and the bet is made; its answer never reaches the page.
    let committed!: () => void;
    const answered = new Promise<void>((resolve) => (committed = resolve));
    const betsPath = (url: URL) => url.pathname === '/api/bets';
    await page.route(betsPath, async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      const response = await route.fetch();
      expect(response.status()).toBe(201);
      committed();
      await route.abort('connectionfailed');
    });
    await page.getByRole('button', { name: 'Send Bet Invitation' }).click();
    await answered;
    await toast(page, 'Error').waitFor();
    await page.unroute(betsPath);

    await page.reload();
    await wizardStep(page).getByText('Step 4 of 4').waitFor();
    await sendBet(page, 'Bet created with invite!');
    await page.getByTestId('bet-summary').getByText('Kite up for an hour').waitFor();
    await expect(betsNow()).resolves.toBe(before + 1);
    await expect(storedDraft(page)).resolves.toBeNull();
  });
});
