import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateBetResponse } from '@wagers/contracts/api/bets';
import type { NotificationPreferences } from '@wagers/contracts/api/notifications';
import { allProjectors } from '@wagers/projection-service/projectors';
import {
  startTestSmtpServer,
  type ReceivedMail,
  type TestSmtpServer,
} from '@wagers/test-support/smtp';
import { startTestApp, type ApiClient, type TestApp } from '../../test-support/test-app.ts';
import { rebuild } from '../bets/rebuild.ts';
import { personThroughSmtp, postOk } from './people-through-smtp.ts';

/**
 * Every notification kind reaches the right person once, through a real SMTP server, with a
 * one-click unsubscribe that works signed out and sticks.
 */
describe('notification emails', () => {
  let smtp: TestSmtpServer;
  let app: TestApp;
  let ann: ApiClient;
  let ben: ApiClient;
  let annId: string;
  let benId: string;

  const notices = (email: string) =>
    smtp.received.filter(
      (mail) => mail.to.includes(email) && !mail.text.includes('/api/login/verify'),
    );
  const subjects = (email: string) => notices(email).map((mail) => mail.subject);
  const person = (email: string, firstName: string) =>
    personThroughSmtp(app, smtp, email, firstName);
  const post = postOk;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    app = await startTestApp({ env: { SMTP_URL: smtp.url } });
    ({ client: ann, id: annId } = await person('ann@example.com', 'Ann'));
    ({ client: ben, id: benId } = await person('ben@example.com', 'Ben'));
  });
  afterAll(async () => {
    await app?.stop();
    await smtp?.stop();
  });

  it('a friend request, and each step of a bet, reach the other side once', async () => {
    await post(ann, '/api/friend-requests', { receiverId: benId });
    await post(ben, '/api/friend-requests', { receiverId: annId });
    const bet = (await post(ann, '/api/bets', {
      title: 'Rain on Sunday',
      description: 'In Paris',
      wagerType: 'money',
      wagerAmount: '5',
      opponentId: benId,
    })) as { body: CreateBetResponse };
    const id = bet.body.id;
    await post(ben, `/api/bets/${id}/accept`);
    await post(ann, `/api/bets/${id}/resolve`, { resolution: 'creator_won' });
    await post(ben, `/api/bets/${id}/resolve`, { resolution: 'opponent_won' });
    await post(ben, `/api/bets/${id}/resolve`, { resolution: 'creator_won' });
    const declined = (await post(ann, '/api/bets', {
      title: 'Snow',
      description: 'In Rome',
      wagerType: 'custom',
      wagerDescription: 'Dinner',
      opponentId: benId,
    })) as { body: CreateBetResponse };
    await post(ben, `/api/bets/${declined.body.id}/decline`);
    await app.settled();
    await smtp.waitFor(
      () => notices('ann@example.com').length >= 6 && notices('ben@example.com').length >= 6,
      `every notice (${JSON.stringify([subjects('ann@example.com'), subjects('ben@example.com')])})`,
    );
    await app.settled();

    expect(subjects('ben@example.com').sort()).toEqual(
      [
        'Ann Lee sent you a friend request',
        'Ann Lee proposed a bet: "Rain on Sunday"',
        'Ann Lee reported the outcome of "Rain on Sunday"',
        'Your reports disagree on "Rain on Sunday"',
        '"Rain on Sunday" is complete',
        'Ann Lee proposed a bet: "Snow"',
      ].sort(),
    );
    expect(subjects('ann@example.com').sort()).toEqual(
      [
        'Ben Lee accepted your bet "Rain on Sunday"',
        'Ben Lee reported the outcome of "Rain on Sunday"',
        'Your reports disagree on "Rain on Sunday"',
        'Ben Lee reported the outcome of "Rain on Sunday"',
        '"Rain on Sunday" is complete',
        'Ben Lee declined your bet "Snow"',
      ].sort(),
    );
    const proposal = notices('ben@example.com').find((m) => m.subject.includes('proposed'))!;
    expect(proposal.text).toContain(`${app.url}/bets/${id}`);
  });

  it('an accepted invite tells the inviter', async () => {
    const invite = await post(ann, '/api/invites', { inviteeEmail: 'cat@example.com' });
    const { code } = invite.body as { code: string };
    const cat = await person('cat@example.com', 'Cat');
    await post(cat.client, `/api/invites/${code}/accept`);
    await smtp.waitFor(
      () => subjects('ann@example.com').includes('Cat Lee accepted your invite'),
      'the invite-accepted notice',
    );
  });

  it('a rebuild of every read model sends nothing again', async () => {
    await app.settled();
    const before = smtp.received.length;
    await rebuild(app, allProjectors);
    await app.settled();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(smtp.received.length).toBe(before);
  });

  it('every email unsubscribes in one click, signed out, and it sticks', async () => {
    const mail: ReceivedMail = notices('ben@example.com').find((m) =>
      m.subject.includes('proposed'),
    )!;
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const link = /^<(.+)>$/.exec(mail.headers['list-unsubscribe'] ?? '')?.[1] ?? '';
    expect(link).toContain('/api/notifications/unsubscribe?token=');
    expect(mail.text).toContain(link);

    const path = link.replace(/^https?:\/\/[^/]+/, '');
    const page = await app.anonymous().get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('A friend proposes a bet to you'.toLowerCase());
    const forged = await app.anonymous().post(`${path.slice(0, -3)}abc`);
    expect(forged.status).toBe(404);
    // What a mail client sends for RFC 8058 one-click.
    const oneClick = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.text()).toContain('You will no longer get emails');
    await app.settled();

    const preferences = await ben.get<NotificationPreferences>('/api/notification-preferences');
    expect(preferences.body).toContainEqual({ kind: 'bet_proposed', email: false, sms: false });
    expect(preferences.body).toContainEqual({ kind: 'bet_completed', email: true, sms: false });

    const before = notices('ben@example.com').length;
    await post(ann, '/api/bets', {
      title: 'Hail',
      description: 'In Oslo',
      wagerType: 'custom',
      wagerDescription: 'Coffee',
      opponentId: benId,
    });
    await post(ann, '/api/friend-requests', {
      receiverId: (await person('dan@example.com', 'Dan')).id,
    });
    await smtp.waitFor(() => notices('dan@example.com').length === 1, 'a later notice to Dan');
    await app.settled();
    expect(notices('ben@example.com').length).toBe(before);

    // Switched back on from the profile page.
    const on = await ben.put('/api/notification-preferences', {
      kind: 'bet_proposed',
      email: true,
    });
    expect(on.status, on.text).toBe(200);
    expect(
      (await ben.put('/api/notification-preferences', { kind: 'nope', email: true })).status,
    ).toBe(400);
    expect(
      (
        await app
          .anonymous()
          .put('/api/notification-preferences', { kind: 'bet_proposed', email: true })
      ).status,
    ).toBe(401);
    await post(ann, '/api/bets', {
      title: 'Fog',
      description: 'In London',
      wagerType: 'custom',
      wagerDescription: 'Tea',
      opponentId: benId,
    });
    await smtp.waitFor(
      () => subjects('ben@example.com').includes('Ann Lee proposed a bet: "Fog"'),
      'the notice after switching back on',
    );
  });
});
