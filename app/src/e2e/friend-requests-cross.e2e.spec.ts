import { afterAll, beforeAll, describe, it } from 'vitest';
import { limitRules } from '@wagers/platform/limits/rules';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { launchBrowser } from './support/browser.ts';
import { apiPerson, browserFor, caughtUp, toast, type ApiPerson } from './support/people.ts';

/**
 * Two people ask each other at the same time: the second to ask accepts the first's request, so
 * they are friends at once, and the screen says so and shows it everywhere.
 */
describe('friend requests that cross', () => {
  let app: TestApp;
  let browser: Browser;
  let ida: ApiPerson;
  let jon: ApiPerson;
  let page: Page;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    [ida, jon] = await Promise.all([
      apiPerson(app, { first: 'Ida', last: 'Irons' }),
      apiPerson(app, { first: 'Jon', last: 'Jones' }),
    ]);
    await caughtUp(ida, jon);
    ({ page } = await browserFor(browser, app, ida));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('adding someone who has just asked you makes you friends, and the counts follow', async () => {
    await page.goto('/');
    await page.getByTestId('stats-friends').getByText('Friends (0)').waitFor();
    await page.getByRole('link', { name: 'Friends', exact: true }).click();
    await page.getByTestId('tab-friends').getByText('My Friends (0)').waitFor();
    await page.getByTestId('tab-find').click();
    await page.getByPlaceholder('Search by email or name').fill('Jones');
    const result = page.getByTestId('search-result').filter({ hasText: 'Jon Jones' });
    await result.getByRole('button', { name: 'Add Friend' }).waitFor();

    // Meanwhile Jon asks Ida; her page does not know yet.
    const asked = await jon.client.post('/api/friend-requests', { receiverId: ida.user.id });
    if (asked.status !== 201) throw new Error(`Jon's request failed: ${asked.status}`);

    await result.getByRole('button', { name: 'Add Friend' }).click();
    await toast(page, 'Friend request accepted')
      .getByText('You are now friends with Jon')
      .waitFor();
    await result.getByText('Friends', { exact: true }).waitFor();
    await page.getByTestId('tab-friends').getByText('My Friends (1)').waitFor();
    await page.getByTestId('tab-requests').click();
    await page.getByText('No pending requests').waitFor();
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByTestId('stats-friends').getByText('Friends (1)').waitFor();
  });

  it("accepting a request on the Requests tab moves the dashboard's friends count too", async () => {
    const kai = await apiPerson(app, { first: 'Kai', last: 'Kent' });
    const asked = await kai.client.post('/api/friend-requests', { receiverId: ida.user.id });
    if (asked.status !== 201) throw new Error(`Kai's request failed: ${asked.status}`);
    await caughtUp(ida, kai);
    // A fresh load: the dashboard's figures, read now, stay in the page's cache.
    await page.goto('/');
    await page.getByTestId('stats-friends').getByText('Friends (1)').waitFor();
    await page.getByRole('link', { name: 'Friends', exact: true }).click();
    await page.getByTestId('tab-requests').click();
    await page.getByRole('button', { name: 'Accept Kai Kent' }).click();
    await toast(page, 'Friend request accepted').waitFor();
    await page.getByTestId('tab-friends').getByText('My Friends (2)').waitFor();
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByTestId('stats-friends').getByText('Friends (2)').waitFor();
  });

  it('offers Add Friend for someone who has asked you, and adding them accepts', async () => {
    const [alice, carol] = await Promise.all([
      apiPerson(app, { first: 'Alice', last: 'Archer' }),
      apiPerson(app, { first: 'Carol', last: 'Cole' }),
    ]);
    const asked = await carol.client.post('/api/friend-requests', { receiverId: alice.user.id });
    if (asked.status !== 201) throw new Error(`Carol's request failed: ${asked.status}`);
    await caughtUp(alice, carol);
    const { context, page: alicePage } = await browserFor(browser, app, alice);
    await alicePage.goto('/friends');
    await alicePage.getByTestId('tab-friends').getByText('My Friends (0)').waitFor();
    await alicePage.getByTestId('tab-find').click();
    await alicePage.getByPlaceholder('Search by email or name').fill('Cole');
    const result = alicePage.getByTestId('search-result').filter({ hasText: 'Carol Cole' });
    await result.getByRole('button', { name: 'Add Friend Carol Cole' }).click();
    await toast(alicePage, 'Friend request accepted')
      .getByText('You are now friends with Carol')
      .waitFor();
    await result.getByText('Friends', { exact: true }).waitFor();
    await alicePage.getByTestId('tab-friends').click();
    await alicePage.getByTestId('tab-friends').getByText('My Friends (1)').waitFor();
    await alicePage.getByTestId('friend-card').filter({ hasText: 'Carol Cole' }).waitFor();
    await alicePage.getByTestId('tab-requests').click();
    await alicePage.getByText('No pending requests').waitFor();
    await context.close();
  });

  it('says why a request past the hourly limit was refused', async () => {
    const others = await Promise.all(
      Array.from({ length: 21 }, (_, i) => apiPerson(app, { first: 'Many', last: `Other${i}` })),
    );
    // Ida's hour fills up (her request to Jon above counted too).
    for (const other of others.slice(0, 20)) {
      const sent = await ida.client.post('/api/friend-requests', { receiverId: other.user.id });
      if (sent.status === 429) break;
      if (sent.status !== 201) throw new Error(`request failed: ${sent.status} ${sent.text}`);
    }
    await caughtUp(ida, others[20]!);
    await page.goto('/friends');
    await page.getByTestId('tab-find').click();
    await page.getByPlaceholder('Search by email or name').fill('Other20');
    const result = page.getByTestId('search-result').filter({ hasText: 'Many Other20' });
    await result.getByRole('button', { name: 'Add Friend' }).click();
    await toast(page, 'Error')
      .getByText(limitRules['friend-requests-per-sender'].message)
      .waitFor();
  });
});
