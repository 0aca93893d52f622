import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { ScreenAudit } from './support/audit.ts';
import { activeBet, decline, propose, resolve } from './support/bet-data.ts';
import { launchBrowser } from './support/browser.ts';
import type { PageGlobals } from './support/page-globals.ts';
import {
  apiPerson,
  befriendOverApi,
  browserFor,
  caughtUp,
  type ApiPerson,
} from './support/people.ts';

/**
 * Every signed-in screen as Ann sees it with a full account: friends, requests both ways and a bet
 * in each state. Each screen is saved on desktop and phone widths and checked with axe-core.
 */
describe('signed-in screens on desktop and phone', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  const audit = new ScreenAudit();
  const bets: Record<string, string> = {};

  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    const [ann, ben, cat, dan, eve] = (await Promise.all(
      [
        { first: 'Ann', last: 'Archer' },
        { first: 'Ben', last: 'Baker' },
        { first: 'Cat', last: 'Cole' },
        { first: 'Dan', last: 'Diaz' },
        { first: 'Eve', last: 'Evans' },
      ].map((name) => apiPerson(app, name)),
    )) as [ApiPerson, ApiPerson, ApiPerson, ApiPerson, ApiPerson];
    await befriendOverApi(ann, ben);
    await befriendOverApi(ann, cat);
    await dan.client.post('/api/friend-requests', { receiverId: ann.user.id });
    await ann.client.post('/api/friend-requests', { receiverId: eve.user.id });

    bets.declined = (await propose(ann, cat, { title: 'Cat runs a marathon this year' })).id;
    await decline(cat, bets.declined);
    bets.lost = await activeBet(ben, ann, {
      title: 'Ben finishes the puzzle first',
      wagerAmount: '15.50',
    });
    await resolve(ben, bets.lost, 'creator_won');
    await resolve(ann, bets.lost, 'creator_won');
    bets.won = await activeBet(ann, ben, { title: 'Lakers win tonight', wagerAmount: '25' });
    await resolve(ann, bets.won, 'creator_won');
    await resolve(ben, bets.won, 'creator_won');
    bets.disagreement = await activeBet(ann, cat, {
      title: 'First snow before December',
      wagerType: 'custom',
      wagerAmount: undefined,
      wagerDescription: 'Loser shovels the driveway',
    });
    await resolve(ann, bets.disagreement, 'creator_won');
    await resolve(cat, bets.disagreement, 'opponent_won');
    bets.waiting = await activeBet(ann, ben, { title: 'Sourdough rises overnight' });
    await resolve(ann, bets.waiting, 'creator_won');
    bets.active = await activeBet(ann, ben, { title: 'Ten thousand steps every day in May' });
    bets.invite = (
      await propose(
        ann,
        { inviteeEmail: 'newcomer@example.com' },
        { title: 'Newcomer beats my chess rating' },
      )
    ).id;
    bets.opponent = (
      await propose(cat, ann, {
        title: 'Cat reads 20 books this year',
        description:
          'Counting only books finished between January and December, audiobooks included.',
        wagerType: 'custom',
        wagerAmount: undefined,
        wagerDescription: 'Loser buys dinner',
      })
    ).id;
    bets.creator = (await propose(ann, ben, { title: 'Ben quits coffee for a week' })).id;
    await caughtUp(ann, ben, cat, dan, eve);

    ({ page } = await browserFor(browser, app, ann));
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('dashboard: loading, every tab', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === '/api/bets',
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.goto('/');
    await page.getByTestId('bets-loading').waitFor();
    await audit.capture(page, 'dashboard-loading');
    release();
    await page.unroute((url) => url.pathname === '/api/bets');

    await page.getByTestId('bet-card').first().waitFor();
    await expect(page.getByTestId('tab-pending').textContent()).resolves.toBe('Pending (3)');
    await audit.capture(page, 'dashboard-bets');
    for (const tab of ['pending', 'active', 'completed'] as const) {
      await page.getByTestId(`tab-${tab}`).click();
      await audit.capture(page, `dashboard-tab-${tab}`);
    }
  });

  it('friends: every tab', async () => {
    await page.goto('/friends');
    await page.getByTestId('friend-card').first().waitFor();
    await audit.capture(page, 'friends-my-friends');
    await page.getByTestId('tab-requests').click();
    await page.getByTestId('incoming-request').waitFor();
    await page.getByTestId('sent-request').waitFor();
    await audit.capture(page, 'friends-requests');
    await page.getByTestId('tab-find').click();
    await page.getByPlaceholder('Search by email or name').fill('e');
    await page.getByTestId('search-result').first().waitFor();
    await audit.capture(page, 'friends-find-results');
    await page.getByPlaceholder('Search by email or name').fill('nobody by this name');
    await page.getByTestId('search-empty').waitFor();
    await audit.capture(page, 'friends-find-no-results');
    await page.getByTestId('tab-invite').click();
    await page.getByLabel('Phone number').fill('+1 555 123 4567');
    await audit.capture(page, 'friends-invite');
  });

  it('create-bet wizard: every step', async () => {
    await page.goto('/bets/create');
    await page.getByTestId('friend-option').first().waitFor();
    await page.getByText('Ben Baker').click();
    await audit.capture(page, 'create-step1-friend');
    await page.getByRole('tab', { name: 'Invite New User' }).click();
    await page.getByLabel('Email address').fill('someone.new@example.com');
    await audit.capture(page, 'create-step1-invite');
    await page.getByRole('tab', { name: 'Select Friend' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Title').fill('Ben runs 5 km under 25 minutes');
    await page.getByLabel('Description').fill('At the park run on Saturday, official time.');
    await audit.capture(page, 'create-step2-details');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Amount (USD)').fill('10');
    await audit.capture(page, 'create-step3-money');
    await page.getByText('Custom', { exact: true }).click();
    await page.getByLabel('What are you wagering?').fill('Loser bakes a cake');
    await audit.capture(page, 'create-step3-custom');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('bet-review').waitFor();
    await audit.capture(page, 'create-step4-review');
    await page.evaluate(() => (globalThis as unknown as PageGlobals).localStorage.clear());
  });

  async function captureBet(name: string, id: string, shows: string): Promise<void> {
    await page.goto(`/bets/${id}`);
    await page.getByTestId(shows).waitFor();
    await page.getByTestId('history-entry').first().waitFor();
    await audit.capture(page, name);
  }

  it('bet details while pending: creator, opponent, newcomer invite, delete confirmation', async () => {
    await captureBet('bet-pending-opponent', bets.opponent!, 'opponent-banner');
    await captureBet('bet-pending-invite', bets.invite!, 'creator-banner');
    await captureBet('bet-pending-creator', bets.creator!, 'creator-banner');
    await page.getByRole('button', { name: 'Delete Bet' }).click();
    await page.getByRole('alertdialog').waitFor();
    await audit.capture(page, 'bet-delete-confirm', { dialog: true });
  });

  it('bet details while active: open, waiting for the other side, disagreement', async () => {
    await captureBet('bet-active', bets.active!, 'resolve-card');
    await captureBet('bet-waiting', bets.waiting!, 'resolution-status');
    await captureBet('bet-disagreement', bets.disagreement!, 'resolution-status');
  });

  it('bet details once over: won, lost with the payment dialog, declined, not found', async () => {
    await captureBet('bet-completed-won', bets.won!, 'result-banner');
    await captureBet('bet-declined', bets.declined!, 'bet-summary');
    await captureBet('bet-completed-lost', bets.lost!, 'pay-button');
    await page.getByTestId('pay-button').click();
    await page.getByTestId('payment-dialog').waitFor();
    await audit.capture(page, 'bet-payment-dialog', { dialog: true });

    await page.goto('/bets/no-such-bet');
    await page.getByText('Bet not found').waitFor();
    await audit.capture(page, 'bet-not-found');
  });

  it('profile with stats and recent activity', async () => {
    await page.goto('/profile');
    await page.getByTestId('recent-bet').first().waitFor();
    await audit.capture(page, 'profile');
  });

  it('has no serious or critical accessibility violation and fits a 375 px phone', () => {
    audit.report();
    expect(audit.findings).toEqual([]);
  });
});
