import type { Page } from 'playwright-core';

export interface BetTerms {
  title: string;
  description: string;
  /** Dollars, for a money wager. */
  amount?: string;
  /** The stake, for a custom wager. */
  custom?: string;
}

/** The wizard's step line, e.g. "Step 2 of 4: Bet Details". */
export function wizardStep(page: Page) {
  return page.getByTestId('wizard-step');
}

export async function next(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Next' }).click();
}

/** From step 2 (details) to step 4 (review), typing the terms the way a person would. */
export async function fillTerms(page: Page, terms: BetTerms): Promise<void> {
  await wizardStep(page).getByText('Step 2 of 4').waitFor();
  await page.getByLabel('Title').fill(terms.title);
  await page.getByLabel('Description').fill(terms.description);
  await next(page);
  await wizardStep(page).getByText('Step 3 of 4').waitFor();
  if (terms.custom !== undefined) {
    await page.getByRole('radio', { name: /^Custom/ }).click();
    await page.getByLabel('What are you wagering?').fill(terms.custom);
  } else {
    await page.getByLabel('Amount (USD)').fill(terms.amount ?? '10');
  }
  await next(page);
  await wizardStep(page).getByText('Step 4 of 4').waitFor();
}

/** Picks a friend on step 1 and moves on. */
export async function chooseFriend(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name: 'Select Friend' }).click();
  await page.getByRole('radio', { name }).click();
  await next(page);
}

/** Sends the reviewed bet and waits for its page; returns that page's path. */
export async function sendBet(page: Page, expectedToast: string): Promise<string> {
  await page.getByRole('button', { name: 'Send Bet Invitation' }).click();
  await page.getByTestId('toast').filter({ hasText: expectedToast }).waitFor();
  await page.waitForURL(
    (url) => /^\/bets\/[^/]+$/.test(url.pathname) && url.pathname !== '/bets/create',
  );
  await page.getByTestId('bet-details').waitFor();
  return new URL(page.url()).pathname;
}
