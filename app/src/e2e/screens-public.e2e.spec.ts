import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { CreateInviteResponse } from '@wagers/contracts/api/invites';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { ScreenAudit } from './support/audit.ts';
import { propose } from './support/bet-data.ts';
import { launchBrowser, newPerson } from './support/browser.ts';
import type { PageGlobals } from './support/page-globals.ts';
import { apiPerson, browserFor, caughtUp, emailFor, type ApiPerson } from './support/people.ts';

/**
 * The screens a visitor sees, a newcomer's empty screens and the invite landing's states, each on
 * desktop and phone widths, checked with axe-core.
 */
describe('public and first-day screens on desktop and phone', () => {
  let app: TestApp;
  let browser: Browser;
  const audit = new ScreenAudit();

  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  describe('signed out', () => {
    let page: Page;
    beforeAll(async () => {
      page = await (await newPerson(browser, app.url)).newPage();
    });

    it('landing page and sign-in', async () => {
      await page.goto('/');
      await page.getByTestId('landing').waitFor();
      await audit.capture(page, 'landing');
      await page.getByRole('link', { name: 'Sign in', exact: true }).first().click();
      await page.getByRole('heading', { name: 'Sign in to Wagers' }).waitFor();
      await audit.capture(page, 'sign-in');
      await page.getByLabel('Email').fill('visitor@example.com');
      await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
      await page.getByRole('heading', { name: 'Check your email' }).waitFor();
      await audit.capture(page, 'sign-in-check-email');
    });

    it('legal pages, dated October 25, 2025', async () => {
      for (const [path, name, mentions] of [
        ['/privacy', 'legal-privacy', 'STOP'],
        ['/terms', 'legal-terms', '$100'],
        ['/opt-in-proof', 'legal-opt-in-proof', 'STOP'],
      ] as const) {
        await page.goto(path);
        await expect(page.getByTestId('legal-updated').textContent()).resolves.toContain(
          'October 25, 2025',
        );
        await expect(page.locator('article').textContent()).resolves.toContain(mentions);
        await audit.capture(page, name);
      }
    });

    it('404 for any other path', async () => {
      await page.goto('/no/such/page');
      await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
      await audit.capture(page, 'not-found');
    });

    it('the wizard for a visitor: invite only, then sign in to send', async () => {
      await page.goto('/bets/create');
      await page.getByText('Build your bet, sign up to send').waitFor();
      await audit.capture(page, 'create-signed-out-step1');
      await page.getByLabel('Email address').fill('friend@example.com');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByLabel('Title').fill('I finish the crossword first');
      await page.getByLabel('Description').fill('Saturday paper, pens only.');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByLabel('Amount (USD)').fill('5');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('button', { name: 'Sign In to Send Invitation' }).waitFor();
      await audit.capture(page, 'create-signed-out-review');
      await page.evaluate(() => (globalThis as unknown as PageGlobals).localStorage.clear());
    });
  });

  describe('signed in', () => {
    let ann: ApiPerson;
    let newcomer: ApiPerson;
    let page: Page;
    let pendingCode: string;
    let usedCode: string;

    beforeAll(async () => {
      [ann, newcomer] = await Promise.all([
        apiPerson(app, { first: 'Ann', last: 'Archer' }),
        apiPerson(app, { first: 'Nia', last: 'Noble' }),
      ]);
      const bet = await propose(
        ann,
        { inviteeEmail: emailFor('Guest') },
        {
          title: 'Guest makes it to the summit',
          wagerType: 'custom',
          wagerAmount: undefined,
          wagerDescription: 'Loser carries the tent',
        },
      );
      pendingCode = bet.invite!.code;
      const invite = await ann.client.post<CreateInviteResponse>('/api/invites', {
        inviteeEmail: emailFor('Used'),
      });
      usedCode = invite.body.code;
      const accepted = await newcomer.client.post(`/api/invites/${usedCode}/accept`);
      if (accepted.status >= 300) throw new Error(`accepting the invite failed: ${accepted.text}`);
      // A fresh account for the empty screens: nothing above involved this one.
      const fresh = await apiPerson(app, { first: 'Fay', last: 'Fresh' });
      await caughtUp(ann, newcomer, fresh);
      ({ page } = await browserFor(browser, app, fresh));
    });

    it("a newcomer's empty screens", async () => {
      await page.goto('/');
      await page.getByText('No bets yet').waitFor();
      await audit.capture(page, 'dashboard-empty');
      await page.goto('/friends');
      await page.getByTestId('friends-empty').waitFor();
      await audit.capture(page, 'friends-empty');
      await page.getByTestId('tab-requests').click();
      await page.getByText('No pending requests').waitFor();
      await audit.capture(page, 'friends-requests-empty');
      await page.goto('/bets/create');
      await page.getByTestId('no-friends').waitFor();
      await audit.capture(page, 'create-step1-no-friends');
      await page.goto('/profile');
      await page.getByText('Create Your First Bet').waitFor();
      await audit.capture(page, 'profile-empty');
      // Five screens, each captured and audited at two sizes: 20 s on a busy 2-core machine.
    }, 120_000);

    it('invite landing: pending with a bet, not found, already used', async () => {
      await page.goto(`/invite/${pendingCode}`);
      await page.getByRole('heading', { name: 'Guest makes it to the summit' }).waitFor();
      await page.getByRole('button', { name: 'Accept Invite' }).waitFor();
      await audit.capture(page, 'invite-landing');
      await page.goto('/invite/not-a-real-code');
      await page.getByText('Invite Not Found').waitFor();
      await audit.capture(page, 'invite-not-found');
      await page.goto(`/invite/${usedCode}`);
      await page.getByText('Invite Already Used').waitFor();
      await audit.capture(page, 'invite-already-used');
    });
  });

  it('has no serious or critical accessibility violation and fits a 375 px phone', () => {
    audit.report();
    expect(audit.findings).toEqual([]);
  });
});
