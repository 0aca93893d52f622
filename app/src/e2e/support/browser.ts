import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium, headless, with the flags this machine's closed network needs. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}

export const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 375, height: 740 },
} as const;

export type Viewport = keyof typeof viewports;

/** A separate person: their own cookies and storage. `clipboard` lets the page read and write it. */
export async function newPerson(
  browser: Browser,
  baseURL: string,
  viewport: Viewport = 'desktop',
  options: { clipboard?: boolean } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    viewport: viewports[viewport],
    permissions: options.clipboard ? ['clipboard-read', 'clipboard-write'] : [],
  });
  // A loaded CI machine can be slow; a journey step waits this long before it fails.
  context.setDefaultTimeout(15_000);
  return context;
}

const screenshotDir = fileURLToPath(new URL('../../../../docs/screenshots', import.meta.url));

/** Saves what the person sees to docs/screenshots/<name>.png: the whole page, or only the window (a dialog). */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({
    path: path.join(screenshotDir, `${name}.png`),
    fullPage: options.fullPage ?? true,
  });
}

/** Signs in through the real pages: the sign-in form, then the link from the development inbox. */
export async function signInThroughBrowser(
  page: Page,
  email: string,
  baseUrl: string,
): Promise<void> {
  const { mailLinks, waitForMailLink } = await import('../../test-support/test-app.ts');
  const before = new Set(await mailLinks(baseUrl, email));
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
  const link = await waitForMailLink(baseUrl, email, before);
  await page.goto(link);
  await page.getByRole('button', { name: `Sign in as ${email.toLowerCase()}` }).click();
}
