import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { AUDIT_SEARCH_LIMIT, type AuditBetHistory } from '@wagers/contracts/api/audit';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { runScript } from '../test-support/run-script.ts';
import { seriousViolations } from './support/audit.ts';
import { launchBrowser } from './support/browser.ts';
import { apiPerson, browserFor, friendsOverApi, type ApiPerson } from './support/people.ts';

/** What the page's date-and-time field holds for a moment to the second, read as UTC. */
const utcField = (ms: number) =>
  // The field drops seconds that are zero, and so must what is typed in it.
  new Date(ms).toISOString().slice(0, 19).replace(/:00$/, '');

/**
 * An auditor finds a disputed bet by a participant's email, reads its history, steps back through
 * its states and sees her own look in the trail; a participant finds no audit area at all.
 */
describe('an auditor replays a disputed bet in the audit area', () => {
  let app: TestApp;
  let browser: Browser;
  let ann: ApiPerson;
  let ben: ApiPerson;
  let cleo: ApiPerson;
  let auditor: Page;
  let betId: string;
  let proposedAt: string;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    [ann, ben] = await friendsOverApi(
      app,
      { first: 'Ann', last: 'Archer' },
      { first: 'Ben', last: 'Baker' },
    );
    cleo = await apiPerson(app, { first: 'Cleo', last: 'Checker' });
    const created = await ann.client.post<{ id: string; createdAt: string }>('/api/bets', {
      title: 'Snow before May',
      description: 'It snows in town before May',
      wagerType: 'money',
      wagerAmount: '5.00',
      validationMode: 'both',
      opponentId: ben.user.id,
    });
    betId = created.body.id;
    proposedAt = created.body.createdAt;
    ben.client.position = ann.client.position;
    for (const [who, action, body] of [
      [ben, 'accept', {}],
      [ann, 'resolve', { resolution: 'creator_won' }],
      [ben, 'resolve', { resolution: 'opponent_won' }],
    ] as const) {
      const done = await who.client.post(`/api/bets/${betId}/${action}`, body);
      if (done.status !== 200) throw new Error(`${action} failed: ${done.status} ${done.text}`);
    }
    const granted = await runScript('auditors', ['grant', cleo.user.email!], app.databaseUrl);
    if (granted.code !== 0) throw new Error(granted.stderr);
    await app.settled();
    auditor = (await browserFor(browser, app, cleo)).page;
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('finds the bet by a participant email from the Audit entry', async () => {
    await auditor.goto('/');
    await auditor.getByRole('link', { name: 'Audit' }).click();
    await auditor.getByRole('heading', { name: 'Audit', exact: true }).waitFor();
    await auditor.getByLabel('Bet id, participant email or name').fill(ann.user.email!);
    await auditor.getByRole('button', { name: 'Search' }).click();
    const result = auditor
      .getByTestId('audit-search-result')
      .filter({ hasText: 'Snow before May' });
    await result.getByText('Ann Archer vs Ben Baker').waitFor();

    await auditor.getByLabel('Bet id, participant email or name').fill('nobody-like-this');
    await auditor.getByRole('button', { name: 'Search' }).click();
    await auditor.getByTestId('audit-search-empty').waitFor();
    await auditor.getByLabel('Bet id, participant email or name').fill(ann.user.email!);
    await auditor.getByRole('button', { name: 'Search' }).click();
    await result.click();
    await auditor.getByRole('heading', { name: 'Bet history' }).waitFor();
  });

  it('reads every event and the state as of any of them', async () => {
    const events = auditor.getByTestId('audit-event');
    await events.first().waitFor();
    const types = await Promise.all(
      (await events.all()).map((row) => row.getAttribute('data-type')),
    );
    expect(types).toEqual([
      'BetProposed',
      'BetAccepted',
      'ResolutionSubmitted',
      'ResolutionSubmitted',
      'ResolutionDisputed',
    ]);
    const state = auditor.getByTestId('audit-state');
    await state.getByText('State as of #4 ResolutionDisputed').waitFor();
    await expect(state.getByTestId('state-opponentResolution').textContent()).resolves.toBe(
      '"opponent_won"',
    );

    await events.nth(2).getByRole('button').click();
    await state.getByText('State as of #2 ResolutionSubmitted').waitFor();
    await expect(state.getByTestId('state-status').textContent()).resolves.toBe(
      '"awaiting_resolution"',
    );
    await expect(state.getByTestId('state-creatorResolution').textContent()).resolves.toBe(
      '"creator_won"',
    );
    await expect(state.getByTestId('state-opponentResolution').textContent()).resolves.toBe('null');
    await events.nth(1).getByRole('button').click();
    await expect(state.getByTestId('state-status').textContent()).resolves.toBe('"active"');
    await events.nth(0).getByText('Ann Archer').waitFor();
  });

  it('offers the export and shows the look in the trail', async () => {
    const exportLink = auditor.getByRole('link', { name: 'Export with hashes' });
    await expect(exportLink.getAttribute('href')).resolves.toBe(`/api/audit/bets/${betId}/export`);
    await auditor.reload();
    await auditor
      .getByTestId('audit-trail-entry')
      .filter({ hasText: 'Cleo Checker read the history of this bet' })
      .first()
      .waitFor();
  });

  it('sees the bet as of a moment picked in UTC, then the whole history again', async () => {
    // A moment on a whole second after the dispute, and Ann's report of a draw only after it,
    // which Ben's report still disputes.
    const before = await cleo.client.get<AuditBetHistory>(`/api/audit/bets/${betId}/history`);
    const disputedAt = Date.parse(before.body.entries.at(-1)!.recordedAt);
    const moment = Math.floor(disputedAt / 1000) * 1000 + 1000;
    await new Promise((resolve) => setTimeout(resolve, moment + 100 - Date.now()));
    ann.client.position = ben.client.position;
    const offered = await ann.client.post(`/api/bets/${betId}/resolve`, { resolution: 'draw' });
    expect(offered.status, offered.text).toBe(200);

    await auditor.goto(`/audit/bets/${betId}`);
    const events = auditor.getByTestId('audit-event');
    const state = auditor.getByTestId('audit-state');
    await state.getByText('State as of #6 ResolutionDisputed').waitFor();
    await expect(state.getByTestId('state-creatorResolution').textContent()).resolves.toBe(
      '"draw"',
    );

    const field = auditor.getByLabel('Date and time (UTC)');
    await field.fill(utcField(moment));
    await field.press('Enter');
    await auditor
      .getByTestId('audit-as-of')
      .getByText('5 events recorded by then; 2 later events are not shown.')
      .waitFor();
    expect(new URL(auditor.url()).searchParams.get('asOf')).toBe(
      new Date(moment).toISOString().replace('.000Z', 'Z'),
    );
    expect(await events.count()).toBe(5);
    await state.getByText(/^State at .* \(UTC\)$/).waitFor();
    await expect(state.getByTestId('state-creatorResolution').textContent()).resolves.toBe(
      '"creator_won"',
    );
    await expect(state.getByTestId('state-opponentResolution').textContent()).resolves.toBe(
      '"opponent_won"',
    );
    expect(await seriousViolations(auditor)).toEqual([]);
    await auditor
      .getByTestId('audit-trail-entry')
      .filter({ hasText: 'Cleo Checker read the history of this bet as of' })
      .first()
      .waitFor();

    await field.fill(utcField(Math.floor(Date.parse(proposedAt) / 1000) * 1000 - 60_000));
    await auditor.getByRole('button', { name: 'Show the bet then' }).click();
    await auditor.getByTestId('audit-as-of-empty').getByText('The bet did not exist yet').waitFor();
    expect(await events.count()).toBe(0);
    expect(await seriousViolations(auditor)).toEqual([]);

    await field.fill('');
    await auditor.getByRole('button', { name: 'Show the bet then' }).click();
    await auditor.getByRole('alert').getByText('Pick a date and a time (UTC)').waitFor();
    await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');

    await auditor.getByRole('button', { name: 'Show the whole history' }).click();
    await state.getByText('State as of #6 ResolutionDisputed').waitFor();
    expect(await events.count()).toBe(7);
    expect(new URL(auditor.url()).search).toBe('');
    await expect(field.inputValue()).resolves.toBe('');
  });

  it("shows the UTC day the search goes by, and each event's moments in UTC, in a time zone where the day is another", async () => {
    // A zone whose calendar day differs from UTC's at the moment the bet was proposed.
    const utc = new Date(proposedAt);
    const timezoneId = utc.getUTCHours() < 12 ? 'Etc/GMT+12' : 'Pacific/Kiritimati';
    const context = await browser.newContext({ baseURL: app.url, timezoneId });
    const [cookieName, ...value] = (cleo.client.cookie ?? '').split('=');
    await context.addCookies([{ name: cookieName!, value: value.join('='), url: app.url }]);
    const page = await context.newPage();
    const day = proposedAt.slice(0, 10);
    const shown = utc.toLocaleDateString('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    });

    await page.goto('/audit');
    await page.getByLabel('Proposed from (UTC day)').fill(day);
    await page.getByLabel('to', { exact: true }).fill(day);
    await page.getByRole('button', { name: 'Search' }).click();
    await page
      .getByTestId('audit-search-result')
      .filter({ hasText: 'Snow before May' })
      .getByText(`proposed ${shown} (UTC)`)
      .waitFor();

    await page.goto(`/audit/bets/${betId}`);
    const occurred = page.getByTestId('audit-event').first().locator('time').first();
    const at = new Date((await occurred.getAttribute('datetime')) ?? '');
    const inUtc = at.toLocaleString('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      second: '2-digit',
      timeZone: 'UTC',
    });
    await expect(occurred.textContent()).resolves.toBe(`${inUtc} (UTC)`);
    await context.close();
  });

  it('shows the state of the event chosen in a stream one of whose events was deleted', async () => {
    ann.client.position = ben.client.position;
    const created = await ann.client.post<{ id: string }>('/api/bets', {
      title: 'Fog at the pier',
      description: 'Fog hides the pier at dawn',
      wagerType: 'money',
      wagerAmount: '2.00',
      validationMode: 'both',
      opponentId: ben.user.id,
    });
    expect(created.status, created.text).toBe(201);
    const fogged = created.body.id;
    ben.client.position = ann.client.position;
    for (const [who, action, body] of [
      [ben, 'accept', {}],
      [ann, 'resolve', { resolution: 'creator_won' }],
      [ben, 'resolve', { resolution: 'opponent_won' }],
    ] as const) {
      const done = await who.client.post(`/api/bets/${fogged}/${action}`, body);
      expect(done.status, done.text).toBe(200);
      (who === ann ? ben : ann).client.position = who.client.position;
    }
    // Someone with database access deletes Ann's report (#2): the stream is #0, #1, #3, #4.
    const db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    try {
      const deleted = await db.query(
        'DELETE FROM es_events WHERE stream_id = $1 AND stream_revision = 2',
        [`bet-${fogged}`],
      );
      expect(deleted.rowCount).toBe(1);
    } finally {
      await db.end();
    }
    const history = await cleo.client.get<AuditBetHistory>(`/api/audit/bets/${fogged}/history`);
    expect(history.body.entries.map((entry) => entry.revision)).toEqual([0, 1, 3, 4]);
    const third = history.body.entries[2]!;

    await auditor.goto(`/audit/bets/${fogged}`);
    const events = auditor.getByTestId('audit-event');
    const state = auditor.getByTestId('audit-state');
    await state.getByText('State as of #4 ResolutionDisputed').waitFor();
    await events.nth(2).getByRole('button').click();
    await state.getByText('State as of #3 ResolutionSubmitted').waitFor();
    await expect(events.nth(2).getByRole('button').getAttribute('aria-pressed')).resolves.toBe(
      'true',
    );
    for (const key of ['status', 'creatorResolution', 'opponentResolution']) {
      await expect(state.getByTestId(`state-${key}`).textContent(), key).resolves.toBe(
        JSON.stringify(third.stateAfter[key]),
      );
    }
    await events.nth(1).getByRole('button').click();
    await state.getByText('State as of #1 BetAccepted').waitFor();
  });

  it('is not there for a participant', async () => {
    const participant = (await browserFor(browser, app, ann)).page;
    await participant.goto('/');
    await participant.getByRole('link', { name: 'Friends', exact: true }).waitFor();
    expect(await participant.getByRole('link', { name: 'Audit' }).count()).toBe(0);
    await participant.goto(`/audit/bets/${betId}`);
    await participant.getByTestId('not-found').waitFor();
  });

  it('says when a search found more bets than it shows', async () => {
    const [dora, eli] = await friendsOverApi(
      app,
      { first: 'Dora', last: 'Dealer' },
      { first: 'Eli', last: 'Busy' },
    );
    for (let i = 1; i <= AUDIT_SEARCH_LIMIT + 1; i++) {
      const created = await dora.client.post('/api/bets', {
        title: `Busy bet ${i}`,
        description: 'One of many',
        wagerType: 'money',
        wagerAmount: '1.00',
        validationMode: 'both',
        opponentId: eli.user.id,
      });
      if (created.status !== 201) throw new Error(`bet ${i}: ${created.status} ${created.text}`);
    }
    await app.settled();

    await auditor.goto('/audit');
    await auditor.getByLabel('Bet id, participant email or name').fill(dora.user.email!);
    await auditor.getByRole('button', { name: 'Search' }).click();
    await auditor.getByTestId('audit-search-limit').waitFor();
    expect(await auditor.getByTestId('audit-search-result').count()).toBe(AUDIT_SEARCH_LIMIT);
    await expect(auditor.getByTestId('audit-search-limit').textContent()).resolves.toContain(
      `At most the ${AUDIT_SEARCH_LIMIT} newest bets are shown`,
    );

    await auditor.getByLabel('Bet id, participant email or name').fill(ann.user.email!);
    await auditor.getByRole('button', { name: 'Search' }).click();
    // Dora's answer stays on the page until Ann's comes: wait for Ann's few bets to replace it.
    const results = auditor.getByTestId('audit-search-result');
    await expect
      .poll(async () => {
        const shown = await results.count();
        return shown > 0 && shown < AUDIT_SEARCH_LIMIT;
      })
      .toBe(true);
    expect(await auditor.getByTestId('audit-search-limit').count()).toBe(0);
  }, 240_000);
});
