import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { DevMail } from '@wagers/contracts/api/dev';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { launchBrowser, newPerson, signInThroughBrowser } from './support/browser.ts';
import type { PageGlobals } from './support/page-globals.ts';
import { emailFor, reloadUntil, signUpInBrowser, toast } from './support/people.ts';
import { fillTerms, next, sendBet } from './support/wizard.ts';

/** Waits for an email to `to` carrying an invite link, newest first, and returns the link. */
async function inviteLinkIn(baseUrl: string, to: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const mails = (await (await fetch(`${baseUrl}/api/dev/mail`)).json()) as DevMail[];
    const link = mails
      .filter((mail) => mail.to === to)
      .map((mail) => /https?:\/\/\S+\/invite\/[\w.-]+/.exec(mail.text)?.[0])
      .find(Boolean);
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no invite email reached ${to}`);
}

/** Ann bets with someone not on Wagers yet; the invitation email brings them in, straight into the bet. */
describe('a newcomer invited by email joins from the link and lands in the bet', () => {
  let app: TestApp;
  let browser: Browser;
  let ann: Page;
  const newcomerEmail = emailFor('Nora');
  let copiedLink = '';

  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    ({ page: ann } = await signUpInBrowser(
      browser,
      app,
      emailFor('Ann'),
      { first: 'Ann', last: 'Archer' },
      { clipboard: true },
    ));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('Ann invites from the wizard and the invite link is on her clipboard', async () => {
    await ann.getByTestId('header-create-bet').click();
    await ann.getByRole('tab', { name: 'Invite New User' }).click();
    await ann.getByLabel('Email address').fill(newcomerEmail);
    await next(ann);
    await fillTerms(ann, {
      title: 'Nora climbs the wall first',
      description: 'Bouldering gym, Saturday, V3 route.',
      amount: '8',
    });
    await ann.getByTestId('bet-review').getByText(`Invite: ${newcomerEmail}`).waitFor();
    await sendBet(ann, 'Bet created with invite!');
    await toast(ann, 'Bet created with invite!')
      .getByText('The invite link is copied to your clipboard')
      .waitFor();
    copiedLink = await ann.evaluate(() =>
      (globalThis as unknown as PageGlobals).navigator.clipboard.readText(),
    );
    expect(copiedLink).toMatch(new RegExp(`^${app.url}/invite/[\\w-]+\\.[\\w-]{22}$`));

    await ann.getByTestId('participants-card').getByText('Pending Invite').waitFor();
    await ann.getByRole('button', { name: 'Resend Invite' }).click();
    await toast(ann, 'Invitation resent').waitFor();
  });

  it('the newcomer opens the emailed link, signs up from the invite and accepts', async () => {
    const link = await inviteLinkIn(app.url, newcomerEmail);
    expect(link).toBe(copiedLink);

    const nora = await (await newPerson(browser, app.url)).newPage();
    await nora.goto(link);
    // Signed out on a pending invite: straight to sign-in, coming back to the invite afterwards.
    await nora.waitForURL((url) => url.pathname === '/api/login');
    expect(new URL(nora.url()).searchParams.get('redirect')).toBe(new URL(link).pathname);
    await signInThroughBrowser(nora, newcomerEmail, app.url);
    await nora.waitForURL(link);

    const landing = nora.getByTestId('invite-landing');
    await landing.getByText('Ann Archer invited you to Wagers').waitFor();
    await landing.getByRole('heading', { name: 'Nora climbs the wall first' }).waitFor();
    await landing.getByText('$8.00').waitFor();
    await landing.getByRole('button', { name: 'Accept Invite' }).click();
    await toast(nora, 'Invite accepted!')
      .getByText("You're now friends and the bet is ready")
      .waitFor();

    await nora.waitForURL((url) => url.pathname.startsWith('/bets/'));
    await nora.getByTestId('bet-summary').getByText('Active').waitFor();
    await nora.getByTestId('resolve-card').waitFor();
    await nora.getByTestId('participants-card').getByText('Ann Archer').waitFor();

    await nora.goto(link);
    await nora.getByText('Invite Already Used').waitFor();
  });

  it('Ann sees the bet active and the newcomer among her friends', async () => {
    await reloadUntil(ann, ann.getByTestId('bet-summary').getByText('Active'));
    await ann.getByTestId('resolve-card').waitFor();
    await ann.goto('/friends');
    await ann.getByTestId('tab-friends').getByText('My Friends (1)').waitFor();
    await ann.getByTestId('friend-card').getByText(newcomerEmail).waitFor();
  });
});
