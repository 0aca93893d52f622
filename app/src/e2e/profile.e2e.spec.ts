import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { AVATAR_MAX_BYTES, avatarContentTypes } from '@wagers/contracts/api/avatar-rules';
import { NAME_MAX_LENGTH } from '@wagers/contracts/api/profile-rules';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { launchBrowser, newPerson, signInThroughBrowser } from './support/browser.ts';
import { emailFor, reloadUntil, toast } from './support/people.ts';
import { solidPng } from './support/png.ts';

/** A new member names themself and sets a picture; the profile turns away what it cannot take. */
describe('profile: rename and avatar upload', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  const email = emailFor('Pat');

  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    page = await (await newPerson(browser, app.url)).newPage();
    await page.goto('/api/login');
    await signInThroughBrowser(page, email, app.url);
    await page.getByTestId('dashboard').waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('asks for both names, then saves them everywhere the name shows', async () => {
    await page.getByTestId('header-avatar').click();
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    await expect(page.getByLabel('Email', { exact: true }).inputValue()).resolves.toBe(email);
    await page.getByText(/^Member since \w+ \d{4}$/).waitFor();

    await page.getByLabel('First name').fill('Pat');
    await page.getByLabel('Last name').fill('   ');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('alert').getByText('Please enter both first and last name').waitFor();
    await page.getByLabel('First name').fill('');
    await page.getByLabel('Last name').fill('Quinn');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('alert').getByText('Please enter both first and last name').waitFor();

    // A name longer than the server keeps cannot be typed.
    const long = 'P'.repeat(NAME_MAX_LENGTH + 20);
    await page.getByLabel('First name').fill(long);
    await expect(page.getByLabel('First name').inputValue()).resolves.toBe(
      long.slice(0, NAME_MAX_LENGTH),
    );
    await page.getByLabel('Last name').fill(long);
    await expect(page.getByLabel('Last name').inputValue()).resolves.toBe(
      long.slice(0, NAME_MAX_LENGTH),
    );
    await page.getByLabel('Last name').fill('Quinn');
    await page.getByLabel('First name').fill('Pat');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Profile updated').waitFor();
    await page.getByTestId('profile-name').getByText('Pat Quinn').waitFor();
    await expect(page.getByTestId('header-avatar').textContent()).resolves.toContain('PQ');
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByText('Welcome back, Pat!').waitFor();
  });

  it('refuses a file that is not an image, or one of 5 MB or more', async () => {
    await page.goto('/profile');
    const input = page.getByTestId('avatar-input');
    await input.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a picture'),
    });
    await toast(page, 'Invalid file').getByText('Please select an image file').waitFor();
    // An image, but of a type the server does not store: refused before any upload.
    await expect(input.getAttribute('accept')).resolves.toBe(avatarContentTypes.join(','));
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/avatar')) uploads.push(request.url());
    });
    await page.getByTestId('toast').getByRole('button', { name: 'Close notification' }).click();
    await toast(page, 'Invalid file').waitFor({ state: 'detached' });
    await input.setInputFiles({
      name: 'drawing.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    });
    await toast(page, 'Invalid file').getByText('Please select an image file').waitFor();
    expect(uploads).toEqual([]);
    await input.setInputFiles({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(AVATAR_MAX_BYTES + 1),
    });
    await toast(page, 'Invalid file')
      .getByText('Please select an image smaller than 5MB')
      .waitFor();
  });

  it('uploads a picture that then shows in the profile, the header and her bets, after a reload too', async () => {
    // A bet of Pat's, made elsewhere (another session), for her picture to show on.
    const elsewhere = await app.signIn(email);
    const proposed = await elsewhere.post('/api/bets', {
      title: 'Pat paints the fence',
      description: 'Both sides, by Sunday.',
      wagerType: 'custom',
      wagerDescription: 'Lemonade',
      inviteeEmail: 'neighbour@example.com',
    });
    expect(proposed.status, proposed.text).toBe(201);
    await page.goto('/');
    const card = page.getByTestId('bet-card').filter({ hasText: 'Pat paints the fence' });
    await reloadUntil(page, card);
    await expect(card.locator('img').count()).resolves.toBe(0);

    await page.getByTestId('header-avatar').click();
    await page.getByTestId('avatar-input').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: solidPng(64, [79, 70, 229]),
    });
    await toast(page, 'Avatar updated').waitFor();
    // Back on the dashboard without a reload, her bet shows the new picture.
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await card.locator('img').waitFor();
    const served = page.waitForResponse((response) =>
      new URL(response.url()).pathname.startsWith('/avatars/'),
    );
    await page.reload();
    expect((await served).status(), 'GET of the stored picture').toBe(200);
    const picture = page.getByTestId('header-avatar').locator('img');
    await picture.waitFor();
    await expect(
      picture.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
    ).resolves.toBe(64);
    await card.locator('img').waitFor();
    await page.getByTestId('header-avatar').click();
    await page.getByTestId('profile-card').locator('img').waitFor();
  });
});
