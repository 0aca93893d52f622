import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { propose } from './support/bet-data.ts';
import { launchBrowser } from './support/browser.ts';
import { browserWithReads, caughtUp, friendsOverApi, type ApiPerson } from './support/people.ts';

/** What the projection service answers for a read model whose first build is still loading. */
const SERVER_SENTENCE =
  'This part of Wagers is still being prepared. Please try again in a moment.';
/** What the web app says when such a 503 comes without a sentence of its own. */
const PRODUCT_SENTENCE = 'This view is being prepared after an update. It will appear shortly.';

/**
 * A read answered 503 with Retry-After (decision 8: a projector new to a deploy, its first build
 * loading) is asked again when the server says, and while it waits the loading state says why, in
 * the server's words or the product's, to screen readers too; the data replaces it once it comes.
 */
describe('a screen whose read is still being prepared', () => {
  let app: TestApp;
  let browser: Browser;
  let ann: ApiPerson;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    let bo: ApiPerson;
    [ann, bo] = await friendsOverApi(
      app,
      { first: 'Ann', last: 'Lee' },
      { first: 'Bo', last: 'Ng' },
    );
    await caughtUp(ann, bo);
    await propose(ann, bo, { title: 'Rain by noon' });
    await caughtUp(ann, bo);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /**
   * Ann's browser, in which the API calls matching `path` answer 503 with `Retry-After: 1` and
   * `body` until `ready()`, then reach the product as ever; `asked()` counts the 503s.
   */
  async function annWhilePreparing(path: RegExp, body: string) {
    let preparing = true;
    let refused = 0;
    const { page } = await browserWithReads(browser, app, ann, path, async (route) => {
      if (!preparing) return route.continue();
      refused++;
      return route.fulfill({
        status: 503,
        headers: { 'retry-after': '1', 'content-type': 'application/problem+json' },
        body,
      });
    });
    return {
      page,
      asked: () => refused,
      ready: () => {
        preparing = false;
      },
    };
  }

  /** Waits until the read has been refused `times` times (the app asking again meanwhile). */
  async function refusedAtLeast(asked: () => number, times: number, page: Page): Promise<void> {
    for (let i = 0; i < 100 && asked() < times; i++) await page.waitForTimeout(100);
    expect(asked()).toBeGreaterThanOrEqual(times);
  }

  it("says the server's sentence under the skeletons while it waits, then shows the bets", async () => {
    const problem = JSON.stringify({
      type: 'https://wagers.local/problems/unavailable',
      title: 'Service unavailable',
      status: 503,
      detail: SERVER_SENTENCE,
      message: SERVER_SENTENCE,
      code: 'unavailable',
    });
    const { page, asked, ready } = await annWhilePreparing(/^\/api\/bets$/, problem);
    await page.goto('/');
    const loading = page.getByRole('status', { name: 'Loading bets' });
    await loading.getByText(SERVER_SENTENCE).waitFor();
    expect(await loading.getByTestId('skeleton').count()).toBeGreaterThan(0);
    // Still waiting after the next try: the sentence stays, nothing is shown as failed.
    await refusedAtLeast(asked, 2, page);
    await loading.getByText(SERVER_SENTENCE).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);

    ready();
    await page.getByTestId('bet-card').getByRole('link', { name: 'Rain by noon' }).waitFor();
    expect(await page.getByText(SERVER_SENTENCE).count()).toBe(0);
    expect(await page.getByTestId('preparing-notice').count()).toBe(0);
    await page.context().close();
  });

  it("says the product's sentence when the server sent none, then shows the friends", async () => {
    const { page, asked, ready } = await annWhilePreparing(/^\/api\/friends$/, '');
    await page.goto('/friends');
    const loading = page.getByTestId('list-loading');
    await loading.getByText(PRODUCT_SENTENCE).waitFor();
    expect(await page.getByRole('status').getByText(PRODUCT_SENTENCE).count()).toBe(1);
    await refusedAtLeast(asked, 2, page);

    ready();
    await page.getByText('Bo Ng').first().waitFor();
    expect(await page.getByText(PRODUCT_SENTENCE).count()).toBe(0);
    await page.context().close();
  });

  it('says it beside figures whose skeletons stand inline, then shows the figures', async () => {
    const { page, asked, ready } = await annWhilePreparing(/^\/api\/stats$/, '');
    await page.goto('/');
    const card = page.getByTestId('stats-card');
    await card.getByRole('status').getByText(PRODUCT_SENTENCE).waitFor();
    await refusedAtLeast(asked, 2, page);

    ready();
    // The next ask comes after the Retry-After second, later still on a loaded machine.
    await expect
      .poll(() => card.getByTestId('stat-total').textContent(), { timeout: 15_000 })
      .toBe('1');
    expect(await page.getByText(PRODUCT_SENTENCE).count()).toBe(0);
    await page.context().close();
  });
});
