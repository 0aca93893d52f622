import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { seriousViolations } from './support/audit.ts';
import { launchBrowser, screenshot } from './support/browser.ts';
import { browserFor, caughtUp, friendsOverApi, reloadUntil, toast } from './support/people.ts';
import { next, sendBet, wizardStep } from './support/wizard.ts';

const REPORT_STANDS = 'If my friend has not answered 7 days after my report, my report stands.';

/**
 * Ann proposes a bet where her report stands if Ben goes quiet; Ben sees that before accepting.
 * They report different winners, Ben offers a draw, Ann accepts, and the bet's history tells each
 * step to both of them.
 */
describe('friends disagree and call it a draw', () => {
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
    await caughtUp(annApi, benApi);
    [{ page: ann }, { page: ben }] = await Promise.all([
      browserFor(browser, app, annApi),
      browserFor(browser, app, benApi),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('Ann offers that her report stands, and sees it again in the review', async () => {
    await ann.goto('/friends');
    await reloadUntil(ann, ann.getByTestId('friend-card').filter({ hasText: 'Ben Baker' }));
    await ann.getByRole('link', { name: 'New bet with Ben Baker' }).click();
    await wizardStep(ann).getByText('Step 2 of 4').waitFor();
    await ann.getByLabel('Title').fill('Snow before New Year');
    await ann.getByLabel('Description').fill('At least 1 cm in Central Park.');
    await ann.getByRole('radio', { name: /Both must confirm/ }).click();
    await ann.getByLabel(REPORT_STANDS).click();
    await next(ann);
    await wizardStep(ann).getByText('Step 3 of 4').waitFor();
    await ann.getByLabel('Amount (USD)').fill('20');
    await next(ann);
    await wizardStep(ann).getByText('Step 4 of 4').waitFor();
    const review = ann.getByTestId('bet-review');
    await review.getByText(REPORT_STANDS).waitFor();
    await screenshot(ann, 'draw-journey-review-report-stands-desktop');
    betUrl = await sendBet(ann, 'Bet created!');
  });

  it('Ben sees the standing report before he accepts', async () => {
    await ben.goto(betUrl);
    await ben.getByTestId('opponent-banner').waitFor();
    await ben.getByTestId('bet-terms').getByText(REPORT_STANDS).waitFor();
    expect(await seriousViolations(ben)).toEqual([]);
    await screenshot(ben, 'draw-journey-opponent-sees-terms-desktop');
    await ben.getByTestId('opponent-banner').getByRole('button', { name: 'Accept' }).click();
    await toast(ben, 'Bet accepted!').waitFor();
    await ben.getByTestId('resolve-card').waitFor();
  });

  it('they report different winners', async () => {
    await reloadUntil(ann, ann.getByTestId('resolve-card'));
    await ann.getByRole('radio', { name: 'Ann Archer won' }).click();
    await ann.getByRole('button', { name: 'Submit Resolution' }).click();
    await toast(ann, 'Resolution submitted').waitFor();

    await reloadUntil(ben, ben.getByText('Their report: Ann Archer won'));
    await ben.getByRole('radio', { name: 'Ben Baker won' }).click();
    await ben.getByRole('button', { name: 'Submit Resolution' }).click();
    await ben.getByText("There's a disagreement. Please discuss and resubmit.").waitFor();
  });

  it('Ben offers a draw and Ann accepts it', async () => {
    await ben.getByTestId('bet-terms').getByRole('button', { name: 'Offer a draw' }).click();
    await toast(ben, 'Draw offered').waitFor();
    await ben.getByText('You offered to call it a draw. Waiting for an answer.').waitFor();

    await reloadUntil(ann, ann.getByText('Your friend offered to call it a draw.'));
    await screenshot(ann, 'draw-journey-draw-offered-desktop');
    const record = ann.getByTestId('head-to-head');
    await record.getByText('0 wins, 0 losses, 0 draws · even').waitFor();
    await ann.getByTestId('bet-terms').getByRole('button', { name: 'Accept draw' }).click();
    await toast(ann, 'Draw accepted').waitFor();
    await ann.getByTestId('bet-terms').getByText('Both agreed to call it a draw.').waitFor();
    // Her record against Ben counts the draw at once, without a reload.
    await record.getByText('0 wins, 0 losses, 1 draw · even').waitFor();
  });

  it('the history shows each step to both, in order', async () => {
    const steps = [
      `Ann Archer proposed "Snow before New Year" to Ben Baker for $20.00 (both must confirm the outcome; Ann Archer's report stands after 7 days without an answer)`,
      'Ben Baker accepted the bet',
      'Ann Archer reported the outcome: Ann Archer won',
      'Ben Baker reported the outcome: Ben Baker won',
      'The answers differ (Ann Archer: Ann Archer won; Ben Baker: Ben Baker won); waiting for both to agree',
      'Ben Baker offered to call it a draw',
      'Ann Archer accepted the draw',
      'Bet completed as a draw',
    ];
    for (const page of [ann, ben]) {
      const entries = page.getByTestId('history-entry');
      await reloadUntil(page, entries.filter({ hasText: 'Bet completed as a draw' }));
      const lines = await entries.locator('p.font-medium').allTextContents();
      expect(lines).toEqual(steps);
    }
    expect(await seriousViolations(ann)).toEqual([]);
    await screenshot(ann, 'draw-journey-history-desktop');
  });
});
