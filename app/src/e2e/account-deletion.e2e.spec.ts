import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { CreateBetResponse } from '@wagers/contracts/api/bets';
import type { User } from '@wagers/contracts/api/user';
import { SESSION_COOKIE } from '@wagers/platform/auth/sessions';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { launchBrowser, screenshot } from './support/browser.ts';
import {
  apiPerson,
  befriendOverApi,
  browserFor,
  caughtUp,
  emailFor,
  reloadUntil,
  signUpInBrowser,
  toast,
  type ApiPerson,
  type BrowserPerson,
} from './support/people.ts';

/** A member deletes their account from the profile page, confirming with their address. */
describe('profile: deleting the account', () => {
  let app: TestApp;
  let browser: Browser;
  let pat: BrowserPerson;
  let ann: ApiPerson;
  const email = emailFor('Pat');

  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    pat = await signUpInBrowser(browser, app, email, { first: 'Pat', last: 'Quinn' });
    ann = await apiPerson(app, { first: 'Ann', last: 'Lee' });
    // Pat's browser session, over the API, to make Ann and Pat friends.
    const session = (await pat.context.cookies()).find((c) => c.name === SESSION_COOKIE)!;
    const client = app.anonymous();
    client.cookie = `${session.name}=${session.value}`;
    const patOverApi = { client, user: (await client.get<User>('/api/auth/user')).body };
    await befriendOverApi(ann, patOverApi);
    const bet = await ann.client.post<CreateBetResponse>('/api/bets', {
      title: 'Rain on Sunday',
      description: 'In Paris',
      wagerType: 'custom',
      wagerDescription: 'Dinner',
      opponentId: patOverApi.user.id,
    });
    expect(bet.status, bet.text).toBe(201);
    const under = await ann.client.post<CreateBetResponse>('/api/bets', {
      title: 'Chess on Friday',
      description: 'Best of three',
      wagerType: 'custom',
      wagerDescription: 'Coffee',
      validationMode: 'both',
      opponentId: patOverApi.user.id,
    });
    expect(under.status, under.text).toBe(201);
    await caughtUp(ann, patOverApi);
    const accepted = await patOverApi.client.post(`/api/bets/${under.body.id}/accept`);
    expect(accepted.status, accepted.text).toBe(200);
    await caughtUp(patOverApi, ann);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('asks for the address first, refuses another one, then deletes and signs out', async () => {
    const { page } = pat;
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Delete account' }).waitFor();
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('This cannot be undone. Type your email address to confirm.').waitFor();
    await dialog.getByRole('button', { name: 'Delete My Account' }).click();
    await dialog.getByRole('alert').getByText('Type your email address to confirm').waitFor();

    await dialog.getByLabel('Email address').fill('someone.else@example.com');
    await screenshot(page, 'profile-delete-account-desktop', { fullPage: false });
    await dialog.getByRole('button', { name: 'Delete My Account' }).click();
    await toast(page, 'Account not deleted').waitFor();
    await page.goto('/profile');
    await page.getByTestId('profile-name').getByText('Pat Quinn').waitFor();

    await page.getByRole('button', { name: 'Delete Account' }).click();
    await page.getByRole('alertdialog').getByLabel('Email address').fill(email.toUpperCase());
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete My Account' }).click();
    await page.waitForURL(`${app.url}/`);
    await page.getByRole('link', { name: 'Get started', exact: true }).first().waitFor();
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Email me a sign-in link' }).waitFor();
  });

  it('takes the deleted user off the friends list and shows the bet they declined', async () => {
    await app.settled();
    const { page } = await browserFor(browser, app, ann);
    await page.goto('/friends');
    await reloadUntil(page, page.getByTestId('friends-empty'));
    await page.getByRole('tab', { name: 'My Friends (0)' }).waitFor();
    await page.goto('/');
    await page.getByTestId('dashboard').waitFor();
    await page.getByText('Rain on Sunday').first().click();
    await page.getByText('Deleted user').first().waitFor();
    await page
      .getByText(/declined/i)
      .first()
      .waitFor();
  });

  it('lets Ann decide the bet under way alone, since nobody is left to answer', async () => {
    const { page } = await browserFor(browser, app, ann);
    await page.goto('/');
    await page.getByTestId('dashboard').waitFor();
    await page.getByText('Chess on Friday').first().click();
    const card = page.getByTestId('resolve-card');
    await card
      .getByText('The other side deleted their account: your report decides the outcome.')
      .waitFor();
    await card.getByRole('radio', { name: 'Ann Lee won' }).click();
    await card.getByRole('button', { name: 'Submit Resolution' }).click();
    const result = page.getByTestId('result-banner');
    await result.getByText('You won!').waitFor();
    await result.getByText('Bet completed', { exact: true }).waitFor();
  });
});
