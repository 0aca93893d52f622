import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bet, BetTerms, CreateBetResponse } from '@wagers/contracts/api/bets';
import type { NotificationPreferences } from '@wagers/contracts/api/notifications';
import type { Runtime } from '@wagers/platform/runtime';
import { startTestSmtpServer, type TestSmtpServer } from '@wagers/test-support/smtp';
import { startTestApp, type ApiClient, type TestApp } from '../../test-support/test-app.ts';
import { personThroughSmtp, postOk } from './people-through-smtp.ts';

/**
 * Reminders and the standing report through the whole product, on a clock the test moves: what
 * each person receives by email and what the API then shows.
 */
describe('reminders and the standing report, end to end', () => {
  let smtp: TestSmtpServer;
  let app: TestApp;
  let ann: ApiClient;
  let ben: ApiClient;
  let annId: string;
  let benId: string;

  // Today at 13:00 UTC, moved by the test; the product reads time only from it.
  let clock = new Date(`${new Date().toISOString().slice(0, 10)}T13:00:00.000Z`);
  const runtime: Runtime = { now: () => clock, newId: randomUUID };
  const later = (hours: number) => {
    clock = new Date(clock.getTime() + hours * 3600_000);
  };
  const dateIn = (days: number) =>
    new Date(clock.getTime() + days * 24 * 3600_000).toISOString().slice(0, 10);

  const reminders = (title: string, email: string) =>
    smtp.received
      .filter((mail) => mail.to.includes(email) && mail.subject.includes(`"${title}"`))
      .map((mail) => mail.subject)
      .filter((subject) => /end date|is waiting|Still waiting|stands/.test(subject))
      .sort();
  const person = (email: string, firstName: string) =>
    personThroughSmtp(app, smtp, email, firstName);
  const post = postOk;
  const propose = async (title: string, endDate: string) => {
    const created = (await post(ann, '/api/bets', {
      title,
      description: 'Between friends',
      wagerType: 'custom',
      wagerDescription: 'Coffee',
      opponentId: benId,
      endDate,
      reportStands: true,
    })) as { body: CreateBetResponse };
    await app.settled();
    await post(ben, `/api/bets/${created.body.id}/accept`);
    return created.body.id;
  };

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    app = await startTestApp({
      env: { SMTP_URL: smtp.url, DEADLINE_CHECK_INTERVAL_MS: '100' },
      runtime,
    });
    ({ client: ann, id: annId } = await person('ann@example.com', 'Ann'));
    ({ client: ben, id: benId } = await person('ben@example.com', 'Ben'));
    await post(ann, '/api/friend-requests', { receiverId: benId });
    await post(ben, '/api/friend-requests', { receiverId: annId });
    await app.settled();
  });
  afterAll(async () => {
    await app?.stop();
    await smtp?.stop();
  });

  it('Ben is reminded on the end date and 48 hours after Ann’s report; 7 days after it, her report stands', async () => {
    const betId = await propose('Rain on Sunday', dateIn(1));
    await post(ann, `/api/bets/${betId}/resolve`, { resolution: 'creator_won' });
    await app.settled();

    later(48);
    await smtp.waitFor(
      () => reminders('Rain on Sunday', 'ben@example.com').length === 2,
      'the end-date and 48-hour reminders',
    );
    expect(reminders('Rain on Sunday', 'ben@example.com')).toEqual([
      '"Rain on Sunday" has reached its end date: who won?',
      'Ann Lee is waiting for your report on "Rain on Sunday"',
    ]);
    expect(reminders('Rain on Sunday', 'ann@example.com')).toEqual([]);

    later(5 * 24);
    const stood = '"Rain on Sunday" is complete: the reported outcome stands without an answer';
    await smtp.waitFor(
      () =>
        reminders('Rain on Sunday', 'ann@example.com').includes(stood) &&
        reminders('Rain on Sunday', 'ben@example.com').includes(stood),
      'both told that the report stood',
    );
    await app.settled();
    const bet = await ben.get<Bet>(`/api/bets/${betId}`);
    expect(bet.body).toMatchObject({ status: 'completed', winnerId: annId });
    expect((await ben.get<BetTerms>(`/api/bets/${betId}/terms`)).body.settledBy).toBe('standing');
    expect(reminders('Rain on Sunday', 'ben@example.com')).toEqual([
      '"Rain on Sunday" has reached its end date: who won?',
      stood,
      'Ann Lee is waiting for your report on "Rain on Sunday"',
    ]);
  });

  it('an answer in time keeps the report from standing, and reminders can be switched off', async () => {
    const off = await ben.put('/api/notification-preferences', { kind: 'reminders', email: false });
    expect(off.status, off.text).toBe(200);
    const preferences = await ben.get<NotificationPreferences>('/api/notification-preferences');
    expect(preferences.body).toContainEqual({ kind: 'reminders', email: false, sms: false });

    const betId = await propose('Snow in May', dateIn(1));
    await post(ann, `/api/bets/${betId}/resolve`, { resolution: 'creator_won' });
    await app.settled();
    later(3 * 24);
    await post(ben, `/api/bets/${betId}/resolve`, { resolution: 'opponent_won' });
    await app.settled();
    later(5 * 24);
    // Ann's own end-date reminder for a later bet: everything due before it has run by then.
    await propose('Hail in Oslo', dateIn(0));
    await smtp.waitFor(
      () => reminders('Hail in Oslo', 'ann@example.com').length === 1,
      'Ann’s reminder of a later bet',
    );
    await app.settled();

    const bet = await ann.get<Bet>(`/api/bets/${betId}`);
    expect(bet.body.status).toBe('awaiting_resolution');
    expect((await ann.get<BetTerms>(`/api/bets/${betId}/terms`)).body.settledBy).toBeNull();
    expect(reminders('Snow in May', 'ben@example.com')).toEqual([]);
    expect(reminders('Hail in Oslo', 'ben@example.com')).toEqual([]);
  });
});
