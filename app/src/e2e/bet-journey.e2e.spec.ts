import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { launchBrowser } from './support/browser.ts';
import {
  apiPerson,
  browserFor,
  emailFor,
  reloadUntil,
  signUpInBrowser,
  toast,
} from './support/people.ts';
import { chooseFriend, fillTerms, sendBet, wizardStep } from './support/wizard.ts';

/**
 * Two people meet on Wagers, become friends and settle a money bet, each in their own browser; a
 * third, a stranger, cannot see it. Then a bet declined and a bet withdrawn.
 */
describe('friends make, dispute, settle, decline and delete bets', () => {
  let app: TestApp;
  let browser: Browser;
  let ann: Page;
  let ben: Page;
  const benEmail = emailFor('Ben');

  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    [{ page: ann }, { page: ben }] = await Promise.all([
      signUpInBrowser(browser, app, emailFor('Ann'), { first: 'Ann', last: 'Archer' }),
      signUpInBrowser(browser, app, benEmail, { first: 'Ben', last: 'Baker' }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('Ann finds Ben by email and asks; Ben accepts in Requests', async () => {
    await ann.getByRole('link', { name: 'Friends', exact: true }).click();
    await ann.getByRole('tab', { name: 'Find Friends' }).click();
    await ann.getByPlaceholder('Search by email or name').fill(benEmail);
    const result = ann.getByTestId('search-result').filter({ hasText: 'Ben Baker' });
    await result.getByText(benEmail).waitFor();
    await result.getByRole('button', { name: 'Add Friend' }).click();
    await toast(ann, 'Friend request sent').waitFor();
    await result.getByText('Request Sent').waitFor();
    await ann.getByTestId('tab-requests').click();
    await ann
      .getByTestId('sent-request')
      .filter({ hasText: 'Ben Baker' })
      .getByText('Pending')
      .waitFor();

    await ben.goto('/friends');
    await reloadUntil(ben, ben.getByTestId('tab-requests').getByText('Requests (1)'));
    await ben.getByTestId('tab-requests').click();
    await ben.getByRole('button', { name: 'Accept Ann Archer' }).click();
    await toast(ben, 'Friend request accepted').getByText('You are now friends with Ann').waitFor();
    await ben.getByTestId('tab-friends').getByText('My Friends (1)').waitFor();
  });

  it('Ann proposes a money bet from the wizard; a stranger cannot see it', async () => {
    await ann.goto('/friends');
    await reloadUntil(ann, ann.getByTestId('friend-card').filter({ hasText: 'Ben Baker' }));
    await ann.getByRole('link', { name: 'New bet with Ben Baker' }).click();
    // The friend is preselected: the wizard opens on step 2, and step 1 shows the choice.
    await wizardStep(ann).getByText('Step 2 of 4').waitFor();
    await ann.getByRole('button', { name: 'Back' }).click();
    await expect(
      ann.getByRole('radio', { name: 'Ben Baker' }).getAttribute('aria-checked'),
    ).resolves.toBe('true');
    await chooseFriend(ann, 'Ben Baker');
    await fillTerms(ann, {
      title: 'Lakers win tonight',
      description: 'Regular season game, final score.',
      amount: '12.50',
    });
    await ann.getByTestId('bet-review').getByText('Ben Baker').waitFor();
    const betUrl = await sendBet(ann, 'Bet created!');
    await ann.getByTestId('creator-banner').getByText('Waiting for response').waitFor();
    await expect(ann.getByRole('button', { name: 'Resend Invite' }).count()).resolves.toBe(0);

    const { page: cat } = await browserFor(
      browser,
      app,
      await apiPerson(app, { first: 'Cat', last: 'Cole' }),
    );
    await cat.goto(betUrl);
    await cat.getByText('Bet not found').waitFor();
    await cat.context().close();
  });

  it('Ben accepts it from his dashboard', async () => {
    await ben.goto('/');
    await reloadUntil(ben, ben.getByTestId('tab-pending').getByText('Pending (1)'));
    await ben.getByTestId('bet-card').filter({ hasText: 'Lakers win tonight' }).click();
    await ben.getByTestId('opponent-banner').getByRole('button', { name: 'Accept' }).click();
    await toast(ben, 'Bet accepted!').getByText('The bet is now active').waitFor();
    await ben.getByTestId('resolve-card').waitFor();
  });

  it('they report different winners and see the disagreement, then agree', async () => {
    await reloadUntil(ann, ann.getByTestId('resolve-card'));
    await ann.getByRole('radio', { name: 'Ann Archer won' }).click();
    await ann.getByRole('button', { name: 'Submit Resolution' }).click();
    await toast(ann, 'Resolution submitted').waitFor();
    await ann.getByText('Waiting for the other party to confirm').waitFor();

    await reloadUntil(ben, ben.getByText('Their report: Ann Archer won'));
    await ben.getByRole('radio', { name: 'Ben Baker won' }).click();
    await ben.getByRole('button', { name: 'Submit Resolution' }).click();
    await ben.getByText("There's a disagreement. Please discuss and resubmit.").waitFor();

    await reloadUntil(ann, ann.getByText("There's a disagreement. Please discuss and resubmit."));
    await ann.getByRole('radio', { name: 'Ben Baker won' }).click();
    await ann.getByRole('button', { name: 'Submit Resolution' }).click();
    await toast(ann, 'Resolution submitted').waitFor();
  });

  it('both see the result; only Ann, who lost, is offered the payment', async () => {
    const result = ann.getByTestId('result-banner');
    await result.getByText('Ben Baker won').waitFor();
    await result.getByText('Bet completed', { exact: true }).waitFor();
    await ann.getByTestId('resolve-card').getByText('Both parties agree on the outcome!').waitFor();
    await expect(ann.getByRole('button', { name: 'Submit Resolution' }).count()).resolves.toBe(0);
    await result.getByRole('button', { name: 'Pay with Venmo' }).click();
    const dialog = ann.getByRole('dialog', { name: 'Pay with Venmo' });
    await dialog.getByText('Send $12.50 to Ben Baker').waitFor();
    const venmo = dialog.getByRole('link', { name: /Open Venmo/ });
    await expect(venmo.getAttribute('target')).resolves.toBe('_blank');
    const href = new URL((await venmo.getAttribute('href')) ?? '');
    expect(href.hostname).toBe('venmo.com');
    expect(href.searchParams.get('amount')).toBe('12.50');
    expect(href.searchParams.get('note')).toContain('Lakers win tonight');
    await dialog.getByText('Close', { exact: true }).click();

    await reloadUntil(ben, ben.getByTestId('result-banner').getByText('You won!'));
    await ben.getByTestId('result-banner').getByText('Bet completed', { exact: true }).waitFor();
    await expect(ben.getByRole('button', { name: 'Pay with Venmo' }).count()).resolves.toBe(0);
    await ben.goto('/');
    await ben.getByTestId('stat-won').filter({ hasText: /^1$/ }).waitFor();
  });

  it('Ben declines the next bet', async () => {
    await ann.goto('/bets/create');
    await chooseFriend(ann, 'Ben Baker');
    await fillTerms(ann, {
      title: 'Snow by Friday',
      description: 'At least one centimetre downtown.',
      custom: 'Loser buys dinner',
    });
    const declined = await sendBet(ann, 'Bet created!');

    await ben.goto(declined);
    await reloadUntil(ben, ben.getByTestId('opponent-banner'));
    await ben.getByTestId('bet-wager').getByText('Loser buys dinner').waitFor();
    await ben.getByTestId('opponent-banner').getByRole('button', { name: 'Decline' }).click();
    await toast(ben, 'Bet declined').waitFor();
    await ben.getByTestId('bet-summary').getByText('Declined').waitFor();
    await expect(ben.getByTestId('opponent-banner').count()).resolves.toBe(0);
  });

  it('Ann withdraws a pending bet behind the confirmation', async () => {
    await ann.goto('/bets/create');
    await chooseFriend(ann, 'Ben Baker');
    await fillTerms(ann, {
      title: 'Marathon under four hours',
      description: 'Berlin, chip time.',
      amount: '40',
    });
    const withdrawn = await sendBet(ann, 'Bet created!');

    await ann.getByRole('button', { name: 'Delete Bet' }).click();
    const confirm = ann.getByRole('alertdialog', { name: 'Delete this bet?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await ann.getByTestId('creator-banner').waitFor();
    await ann.getByRole('button', { name: 'Delete Bet' }).click();
    await confirm.getByRole('button', { name: 'Delete Bet' }).click();
    await toast(ann, 'Bet deleted').waitFor();
    await ann.getByTestId('dashboard').waitFor();
    await ann.getByTestId('bet-card').filter({ hasText: 'Snow by Friday' }).waitFor();
    await expect(
      ann.getByTestId('bet-card').filter({ hasText: 'Marathon under four hours' }).count(),
    ).resolves.toBe(0);

    await ben.goto(withdrawn);
    await reloadUntil(ben, ben.getByText('Bet not found'));
  });
});
