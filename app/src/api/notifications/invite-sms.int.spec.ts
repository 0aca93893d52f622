import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateInviteResponse } from '@wagers/contracts/api/invites';
import { inviteStream } from '@wagers/contracts/events/invite';
import { openedStreamEvents } from '../../test-support/opened-events.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../test-support/test-app.ts';
import { smsOptOutStream } from '@wagers/domain/invites/sms-opt-out';
import { eventually, streamEvents } from '@wagers/test-support/log';
import { inviteStreamOfLink } from '@wagers/test-support/invites';
import { startTestTwilioApi, type TestTwilioApi } from '@wagers/test-support/twilio-api';
import { runScript } from '../../test-support/run-script.ts';
import { sendUnsignedInvite } from '../../test-support/unsigned-invite.ts';
import { accountSid, authToken, fromNumber, postInbound, twilioEnv } from './twilio-settings.ts';

const operatorPassword = 'correct horse battery';

describe('SMS invitations through the twilio client', () => {
  let twilioApi: TestTwilioApi;
  let app: TestApp;
  let ann: ApiClient;

  beforeAll(async () => {
    twilioApi = await startTestTwilioApi();
    app = await startTestApp({
      env: { ...twilioEnv(twilioApi.url), OPERATOR_PASSWORD: operatorPassword },
    });
    ann = await app.signIn('ann@example.com');
    expect((await ann.put('/api/user', { firstName: 'Ann', lastName: 'Lee' })).status).toBe(200);
  });
  afterAll(async () => {
    await app?.stop();
    await twilioApi?.stop();
  });

  const requestsTo = (phone: string) => twilioApi.requests.filter((r) => r.form.To === phone);

  const inbound = (params: Record<string, string>, signature?: string) =>
    postInbound(app.url, params, signature);

  it('sends one SMS naming the inviter, with the link and how to opt out, and records consent', async () => {
    const sent = await ann.post<CreateInviteResponse>('/api/invites', {
      inviteePhone: '+1 (415) 555-0123',
      smsConsent: true,
    });
    expect(sent.status).toBe(201);
    await eventually(
      () => Promise.resolve(requestsTo('+14155550123').length > 0),
      'the Twilio request',
    );
    const [request] = requestsTo('+14155550123');
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe(`/2010-04-01/Accounts/${accountSid}/Messages.json`);
    expect(request!.authorization).toBe(
      `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
    );
    expect(request!.form.From).toBe(fromNumber);
    expect(request!.form.Body).toBe(
      `Ann Lee invited you to Wagers: ${sent.body.inviteLink} Reply STOP to opt out.`,
    );

    await eventually(
      async () =>
        (await streamEvents(app.databaseUrl, inviteStreamOfLink(sent.body.code))).some(
          (e) => e.type === 'InviteDelivered',
        ),
      'InviteDelivered',
    );
    const [invite] = await openedStreamEvents(app.databaseUrl, inviteStreamOfLink(sent.body.code));
    const me = await ann.get<{ id: string }>('/api/auth/user');
    expect(invite!.data).toMatchObject({
      inviteePhone: '+14155550123',
      inviteeEmail: null,
      smsConsent: { givenBy: me.body.id, givenAt: expect.any(String) as string },
    });
    expect(requestsTo('+14155550123')).toHaveLength(1);
  });

  it('records a number that replies STOP, refuses to invite it again, and takes it back on START', async () => {
    const phone = '+14155550124';
    expect((await ann.post('/api/invites', { inviteePhone: phone, smsConsent: true })).status).toBe(
      201,
    );
    const stop = await inbound({ From: phone, To: fromNumber, Body: ' stop ', MessageSid: 'SM1' });
    expect(stop.status).toBe(200);
    expect(await stop.text()).toContain('<Response>');

    const refused = await ann.post<{ message: string; errors: { field: string }[] }>(
      '/api/invites',
      {
        inviteePhone: phone,
        smsConsent: true,
      },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e) => e.field)).toEqual(['inviteePhone']);
    expect(refused.body.message).toMatch(/opted out.*STOP/);

    expect((await inbound({ From: phone, To: fromNumber, Body: 'START' })).status).toBe(200);
    expect((await ann.post('/api/invites', { inviteePhone: phone, smsConsent: true })).status).toBe(
      201,
    );
  });

  it('closes an invite sent before links were signed to a number that has since opted out, sending nothing', async () => {
    const phone = '+14155550177';
    const me = await ann.get<{ id: string }>('/api/auth/user');
    const { code } = await sendUnsignedInvite(app.databaseUrl, me.body.id, { phone });
    await eventually(() => Promise.resolve(requestsTo(phone).length === 1), 'the first SMS');
    expect((await inbound({ From: phone, To: fromNumber, Body: 'STOP' })).status).toBe(200);
    await app.settled();
    // Until then its code alone, which the event log shows, opens it.
    expect((await app.anonymous().get(`/api/invites/${code}`)).status).toBe(200);

    const run = await runScript('invites', ['sign-pending'], app.databaseUrl);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'Closed 1 invite to a number that has opted out of texts: nothing could be sent, and the code alone no longer opens it.',
    );
    await app.settled();
    const visitor = app.anonymous();
    expect((await visitor.get(`/api/invites/${code}`)).status).toBe(404);
    const newcomer = await app.signIn('newcomer.by.text@example.com');
    expect((await newcomer.post(`/api/invites/${code}/accept`)).status).toBe(404);
    expect((await streamEvents(app.databaseUrl, inviteStream(code))).map((e) => e.type)).toEqual([
      'InviteSent',
      'InviteDelivered',
      'InviteSealed',
    ]);

    const again = await runScript('invites', ['sign-pending'], app.databaseUrl);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe('Every pending invite opens only with its signed link.');
    await app.settled();
    expect(requestsTo(phone)).toHaveLength(1);
  });

  it('refuses a webhook call Twilio did not sign, and records nothing', async () => {
    const forged = await inbound({ From: '+14155550125', Body: 'STOP' }, 'bm90IGEgc2lnbmF0dXJl');
    expect(forged.status).toBe(403);
    const unsigned = await fetch(`${app.url}/api/sms/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'From=%2B14155550125&Body=STOP',
    });
    expect(unsigned.status).toBe(403);
    const bad = await inbound({ From: 'nobody', Body: 'STOP' });
    expect(bad.status).toBe(400);
    expect(await streamEvents(app.databaseUrl, smsOptOutStream('+14155550125'))).toEqual([]);
    expect(
      (await ann.post('/api/invites', { inviteePhone: '+14155550125', smsConsent: true })).status,
    ).toBe(201);
  });

  it('records a failure Twilio reports as permanent, without retrying, and leaves the job for an operator', async () => {
    const phone = '+14155550126';
    twilioApi.invalidNumbers.add(phone);
    const sent = await ann.post<CreateInviteResponse>('/api/invites', {
      inviteePhone: phone,
      smsConsent: true,
    });
    await eventually(
      async () =>
        (await streamEvents(app.databaseUrl, inviteStreamOfLink(sent.body.code))).some(
          (e) => e.type === 'InviteDeliveryFailed',
        ),
      'InviteDeliveryFailed',
    );
    const events = await streamEvents(app.databaseUrl, inviteStreamOfLink(sent.body.code));
    expect(events.find((e) => e.type === 'InviteDeliveryFailed')!.data).toMatchObject({
      channel: 'sms',
    });
    expect(events.map((e) => e.type)).not.toContain('InviteDelivered');
    expect(requestsTo(phone)).toHaveLength(1);

    const auth = `Basic ${Buffer.from(`operator:${operatorPassword}`).toString('base64')}`;
    const failed = await fetch(
      `${app.url}/admin/queues/api/queues?activeQueue=notifications&status=failed`,
      {
        headers: { authorization: auth },
      },
    );
    expect(failed.status).toBe(200);
    const board = (await failed.json()) as { queues: { name: string; jobs: { id: string }[] }[] };
    const queue = board.queues.find((q) => q.name === 'notifications');
    expect(queue?.jobs.map((job) => job.id)).toContain(events[0]!.id);
  });

  it('keeps the queue board behind the operator credential', async () => {
    expect((await fetch(`${app.url}/admin/queues`)).status).toBe(401);
    const wrong = `Basic ${Buffer.from('operator:wrong password!').toString('base64')}`;
    expect(
      (await fetch(`${app.url}/admin/queues`, { headers: { authorization: wrong } })).status,
    ).toBe(401);
    const right = `Basic ${Buffer.from(`operator:${operatorPassword}`).toString('base64')}`;
    const page = await fetch(`${app.url}/admin/queues`, { headers: { authorization: right } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/bull/i);
  });
});
