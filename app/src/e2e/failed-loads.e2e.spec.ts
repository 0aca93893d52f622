import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { activeBet, propose, resolve } from './support/bet-data.ts';
import { launchBrowser } from './support/browser.ts';
import { browserWithReads, caughtUp, friendsOverApi, type ApiPerson } from './support/people.ts';

/**
 * A read that fails on the way (the connection drops: the browser aborts the request) is said to
 * have failed. It is never shown as an answer: a bet that does not exist, no friends, no bets,
 * figures of zero.
 */
describe('screens whose data could not load', () => {
  let app: TestApp;
  let browser: Browser;
  let ann: ApiPerson;
  let betId: string;
  let settledId: string;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    let bo: ApiPerson;
    [ann, bo] = await friendsOverApi(
      app,
      { first: 'Ann', last: 'Lee' },
      { first: 'Bo', last: 'Ng' },
    );
    await caughtUp(ann, bo);
    betId = (await propose(ann, bo, { title: 'Rain by noon' })).id;
    // A money bet Ann lost: it has a settlement to show.
    settledId = await activeBet(ann, bo, { title: 'Bo runs faster' });
    await resolve(ann, settledId, 'opponent_won');
    await resolve(bo, settledId, 'opponent_won');
    await caughtUp(ann, bo);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** Ann's browser, in which the API calls matching `path` fail on the way. */
  async function annWithout(path: RegExp): Promise<Page> {
    const { page } = await browserWithReads(browser, app, ann, path, (route) =>
      route.abort('connectionfailed'),
    );
    return page;
  }

  /** The alert a panel shows for what it could not load. */
  const saysNotLoaded = (page: Pick<Page, 'getByRole'>, what: string) =>
    page.getByRole('alert').getByText(`Could not load ${what}`).waitFor();

  it('a bet that could not load is not "not found"', async () => {
    const page = await annWithout(new RegExp(`^/api/bets/${betId}$`));
    await page.goto(`/bets/${betId}`);
    const card = page.getByTestId('bet-not-found');
    await card.getByText('Could not load this bet').waitFor();
    await card.getByText('The connection failed. Check it and try again.').waitFor();
    expect(await page.getByText('Bet not found').count()).toBe(0);
    await page.context().close();
  });

  it('friends that could not load are not "no friends" in the new bet', async () => {
    const page = await annWithout(/^\/api\/friends$/);
    await page.goto('/bets/create');
    await saysNotLoaded(page, 'your friends');
    expect(await page.getByTestId('no-friends').count()).toBe(0);
    await page.context().close();
  });

  it('bets and figures that could not load are not "no bets" and zeros', async () => {
    const page = await annWithout(/^\/api\/(bets|stats)$/);
    await page.goto('/profile');
    await saysNotLoaded(page, 'your statistics');
    await saysNotLoaded(page, 'your recent bets');
    expect(await page.getByText('No bets yet').count()).toBe(0);
    expect(await page.getByTestId('profile-total').count()).toBe(0);

    await page.goto('/');
    await saysNotLoaded(page, 'your figures');
    expect(await page.getByTestId('stat-total').count()).toBe(0);
    await page.context().close();
  });

  it('a settlement that could not load is said so, not left loading', async () => {
    const page = await annWithout(new RegExp(`^/api/bets/${settledId}/settlement$`));
    await page.goto(`/bets/${settledId}`);
    await saysNotLoaded(page.getByTestId('settlement-card'), 'the settlement');
    expect(await page.getByRole('status', { name: 'Loading settlement' }).count()).toBe(0);
    await page.context().close();
  });

  it("a bet's terms that could not load are said so, not left out", async () => {
    const page = await annWithout(new RegExp(`^/api/bets/${settledId}/terms$`));
    await page.goto(`/bets/${settledId}`);
    await page.getByTestId('settlement-card').waitFor();
    await saysNotLoaded(page, "this bet's terms");
    await page.context().close();
  });
});
