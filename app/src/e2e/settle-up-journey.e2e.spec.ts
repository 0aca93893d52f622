import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { CreateBetResponse } from '@wagers/contracts/api/bets';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { seriousViolations } from './support/audit.ts';
import { launchBrowser, screenshot } from './support/browser.ts';
import {
  browserFor,
  caughtUp,
  friendsOverApi,
  reloadUntil,
  toast,
  type ApiPerson,
} from './support/people.ts';

/**
 * Ann wins $12.50 from Ben. Ben marks it paid, Ann confirms; each step shows on both sides: the
 * bet page, the dashboard's Settle up card and Activity, and the head-to-head record.
 */
describe('two friends settle up a money bet', () => {
  let app: TestApp;
  let browser: Browser;
  let ann: Page;
  let ben: Page;
  let betUrl: string;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    const [annApi, benApi] = await friendsOverApi(
      app,
      { first: 'Ann', last: 'Archer' },
      { first: 'Ben', last: 'Baker' },
    );
    const bet = await annApi.client.post<CreateBetResponse>('/api/bets', {
      title: 'Lakers win tonight',
      description: 'Regular season game, final score.',
      wagerType: 'money',
      wagerAmount: '12.50',
      validationMode: 'both',
      opponentId: benApi.user.id,
    });
    const steps: [ApiPerson, string, unknown][] = [
      [benApi, 'accept', undefined],
      [annApi, 'resolve', { resolution: 'creator_won' }],
      [benApi, 'resolve', { resolution: 'creator_won' }],
    ];
    for (const [who, action, body] of steps) {
      const answer = await who.client.post(`/api/bets/${bet.body.id}/${action}`, body);
      if (answer.status !== 200) throw new Error(`${action}: ${answer.status} ${answer.text}`);
    }
    await caughtUp(annApi, benApi);
    betUrl = `/bets/${bet.body.id}`;
    [{ page: ann }, { page: ben }] = await Promise.all([
      browserFor(browser, app, annApi),
      browserFor(browser, app, benApi),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const entries = (page: Page) => page.getByTestId('activity-entry');

  it('the dashboards show who owes whom, with a Venmo link for the one who owes', async () => {
    await ben.goto('/');
    const benCard = ben.getByTestId('settle-up-card');
    await benCard.getByText('You owe Ann Archer $12.50').waitFor();
    const venmo = benCard.getByRole('link', { name: /Pay with Venmo/ });
    const href = new URL((await venmo.getAttribute('href')) ?? '');
    expect(href.hostname).toBe('venmo.com');
    expect(href.searchParams.get('amount')).toBe('12.50');
    expect(href.searchParams.get('note')).toContain('Lakers win tonight');
    await entries(ben).filter({ hasText: 'Bet completed: Ann Archer won' }).waitFor();
    expect(await seriousViolations(ben)).toEqual([]);
    await screenshot(ben, 'dashboard-settle-up-desktop', { fullPage: true });

    await ann.goto('/');
    const annCard = ann.getByTestId('settle-up-card');
    await annCard.getByText('Ben Baker owes you $12.50').waitFor();
    await expect(annCard.getByRole('link', { name: /Pay with Venmo/ }).count()).resolves.toBe(0);
  });

  it('the head-to-head record shows on friend cards and the bet page, mirrored', async () => {
    await ann.goto('/friends');
    await ann
      .getByTestId('friend-card')
      .filter({ hasText: 'Ben Baker' })
      .getByText('1 win, 0 losses, 0 draws · up $12.50')
      .waitFor();
    await ben.goto(betUrl);
    await ben
      .getByTestId('participants-card')
      .getByText('0 wins, 1 loss, 0 draws · down $12.50')
      .waitFor();
  });

  it('Ben, who lost, marks it paid; Ann sees it and confirms', async () => {
    const benSettlement = ben.getByTestId('settlement-card');
    await benSettlement.getByText('You owe Ann Archer $12.50.').waitFor();
    await benSettlement.getByRole('button', { name: 'I paid' }).click();
    await toast(ben, 'Marked as paid').waitFor();
    await benSettlement.getByText('Waiting for Ann Archer to confirm').waitFor();
    expect(await seriousViolations(ben)).toEqual([]);

    await ann.goto(betUrl);
    const annSettlement = ann.getByTestId('settlement-card');
    await reloadUntil(ann, annSettlement.getByText('Ben Baker says they paid you $12.50'));
    await expect(annSettlement.getByRole('button', { name: 'I paid' }).count()).resolves.toBe(0);
    await annSettlement.getByRole('button', { name: 'I received it' }).click();
    await toast(ann, 'Payment confirmed').waitFor();
    await annSettlement.getByText('Ben Baker paid you $12.50. Settled.').waitFor();
    await reloadUntil(ben, benSettlement.getByText('You paid $12.50. Settled.'));
  });

  it('both dashboards are settled up, and Activity lists each step, newest first', async () => {
    for (const [page, friend] of [
      [ann, 'Ben Baker'],
      [ben, 'Ann Archer'],
    ] as const) {
      await page.goto('/');
      await page.getByTestId('settle-up-card').getByText('All settled up').waitFor();
      await entries(page).first().waitFor();
      const lines = await entries(page).allTextContents();
      const steps = [
        'Ann Archer confirmed the payment arrived',
        'Ben Baker marked the bet paid',
        'Bet completed: Ann Archer won',
        'Ben Baker accepted the bet',
        `You and ${friend} are now friends`,
      ];
      const at = steps.map((step) => lines.findIndex((line) => line.includes(step)));
      expect(
        at.every((index) => index >= 0),
        lines.join('\n'),
      ).toBe(true);
      expect([...at].sort((a, b) => a - b)).toEqual(at);
      // A bet's line leads to the bet; a friendship's to Friends.
      await expect(entries(page).first().getAttribute('href')).resolves.toBe(betUrl);
      await expect(entries(page).last().getAttribute('href')).resolves.toBe('/friends');
    }
    expect(await seriousViolations(ann)).toEqual([]);
  });
});
