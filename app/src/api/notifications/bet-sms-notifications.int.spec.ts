import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateBetResponse } from '@wagers/contracts/api/bets';
import { notificationKinds } from '@wagers/contracts/api/notifications';
import type { User } from '@wagers/contracts/api/user';
import { allProjectors } from '@wagers/projection-service/projectors';
import { startTestTwilioApi, type TestTwilioApi } from '@wagers/test-support/twilio-api';
import { startTestApp, type ApiClient, type TestApp } from '../../test-support/test-app.ts';
import { rebuild } from '../bets/rebuild.ts';
import { accountSid, fromNumber, postInbound, twilioEnv } from './twilio-settings.ts';

const phones = {
  ann: '+14155550101',
  ben: '+14155550102',
  cat: '+14155550103',
  dan: '+14155550104',
  fay: '+14155550105',
};

/**
 * Notification texts through the twilio client, against a local stand-in for Twilio's API: every
 * kind reaches the right person once, and only people who agreed to texts and never said STOP.
 */
describe('notification text messages', () => {
  let twilioApi: TestTwilioApi;
  let app: TestApp;
  const people: Record<string, { client: ApiClient; id: string }> = {};

  const texts = (phone: string) =>
    twilioApi.requests.filter((r) => r.form.To === phone).map((r) => r.form.Body ?? '');
  const post = async (client: ApiClient, path: string, body?: unknown) => {
    const answer = await client.post(path, body);
    expect(answer.status, answer.text).toBeLessThan(300);
    return answer;
  };
  /** Every event followed and every queued job done, as the operators' metrics show it. */
  const drained = () => app.drained();
  /** Someone with a name, their phone (with consent or not) and every kind switched on for texts. */
  const person = async (name: keyof typeof phones, smsConsent: boolean) => {
    const client = await app.signIn(`${name}@example.com`);
    const firstName = name[0]!.toUpperCase() + name.slice(1);
    expect((await client.put('/api/user', { firstName, lastName: 'Lee' })).status).toBe(200);
    const phone = await client.put('/api/user/phone', { phone: phones[name], smsConsent });
    expect(phone.status, phone.text).toBe(200);
    for (const kind of notificationKinds) {
      const answer = await client.put('/api/notification-preferences', { kind, sms: true });
      expect(answer.status, answer.text).toBe(200);
    }
    people[name] = { client, id: (await client.get<User>('/api/auth/user')).body.id };
    return people[name];
  };
  /** A reply to our number, as Twilio posts it to the webhook. */
  const reply = async (from: string, body: string) => {
    const answer = await postInbound(app.url, { From: from, To: fromNumber, Body: body });
    expect(answer.status).toBe(200);
  };

  beforeAll(async () => {
    twilioApi = await startTestTwilioApi();
    app = await startTestApp({
      env: twilioEnv(twilioApi.url),
    });
    await person('ann', true);
    await person('ben', true);
  });
  afterAll(async () => {
    await app?.stop();
    await twilioApi?.stop();
  });

  it('every kind reaches the other side once, with the link and how to opt out', async () => {
    const ann = people.ann!;
    const ben = people.ben!;
    await post(ann.client, '/api/friend-requests', { receiverId: ben.id });
    await post(ben.client, '/api/friend-requests', { receiverId: ann.id });
    const bet = (await post(ann.client, '/api/bets', {
      title: 'Rain on Sunday',
      description: 'In Paris',
      wagerType: 'money',
      wagerAmount: '5',
      opponentId: ben.id,
    })) as { body: CreateBetResponse };
    const id = bet.body.id;
    await post(ben.client, `/api/bets/${id}/accept`);
    await post(ann.client, `/api/bets/${id}/resolve`, { resolution: 'creator_won' });
    await post(ben.client, `/api/bets/${id}/resolve`, { resolution: 'opponent_won' });
    await post(ben.client, `/api/bets/${id}/resolve`, { resolution: 'creator_won' });
    const declined = (await post(ann.client, '/api/bets', {
      title: 'Snow',
      description: 'In Rome',
      wagerType: 'custom',
      wagerDescription: 'Dinner',
      opponentId: ben.id,
    })) as { body: CreateBetResponse };
    await post(ben.client, `/api/bets/${declined.body.id}/decline`);
    const invite = await post(ann.client, '/api/invites', { inviteeEmail: 'eve@example.com' });
    const eve = await app.signIn('eve@example.com');
    expect((await eve.put('/api/user', { firstName: 'Eve', lastName: 'Lee' })).status).toBe(200);
    await post(eve, `/api/invites/${(invite.body as { code: string }).code}/accept`);
    await drained();

    const link = `${app.url}/bets/${id}`;
    const text = (what: string, to = link) => `Wagers: ${what}. ${to} Reply STOP to opt out.`;
    expect(texts(phones.ben).sort()).toEqual(
      [
        text('Ann Lee sent you a friend request', `${app.url}/friends`),
        text('Ann Lee proposed a bet: "Rain on Sunday"'),
        text('Ann Lee reported the outcome of "Rain on Sunday"'),
        text('Your reports disagree on "Rain on Sunday"'),
        text('"Rain on Sunday" is complete'),
        text('Ann Lee proposed a bet: "Snow"', `${app.url}/bets/${declined.body.id}`),
      ].sort(),
    );
    expect(texts(phones.ann).sort()).toEqual(
      [
        text('Ben Lee accepted your bet "Rain on Sunday"'),
        text('Ben Lee reported the outcome of "Rain on Sunday"'),
        text('Your reports disagree on "Rain on Sunday"'),
        text('Ben Lee reported the outcome of "Rain on Sunday"'),
        text('"Rain on Sunday" is complete'),
        text('Ben Lee declined your bet "Snow"', `${app.url}/bets/${declined.body.id}`),
        text('Eve Lee accepted your invite', `${app.url}/friends`),
      ].sort(),
    );
    const request = twilioApi.requests.find((r) => r.form.To === phones.ben)!;
    expect(request.path).toBe(`/2010-04-01/Accounts/${accountSid}/Messages.json`);
    expect(request.form.From).toBe(fromNumber);
  });

  it('texts nobody who has not agreed to texts, nor a kind they did not choose', async () => {
    const cat = await person('cat', false);
    await post(people.ann!.client, '/api/friend-requests', { receiverId: cat.id });
    const off = await people.ben!.client.put('/api/notification-preferences', {
      kind: 'friend_request',
      sms: false,
    });
    expect(off.status).toBe(200);
    await post(cat.client, '/api/friend-requests', { receiverId: people.ben!.id });
    await drained();
    expect(texts(phones.cat)).toEqual([]);
    expect(texts(phones.ben).filter((body) => body.includes('Cat Lee'))).toEqual([]);
  });

  it('texts no number that replied STOP', async () => {
    const dan = await person('dan', true);
    await post(people.ann!.client, '/api/friend-requests', { receiverId: dan.id });
    await drained();
    expect(texts(phones.dan)).toHaveLength(1);

    await reply(phones.dan, 'STOP');
    await drained();
    await post(people.ben!.client, '/api/friend-requests', { receiverId: dan.id });
    await post(people.cat!.client, '/api/friend-requests', { receiverId: dan.id });
    await drained();
    expect(texts(phones.dan)).toHaveLength(1);
  });

  it('texts a kind switched off by email but chosen for texts', async () => {
    const fay = await person('fay', true);
    const off = await fay.client.put('/api/notification-preferences', {
      kind: 'friend_request',
      email: false,
    });
    expect(off.status).toBe(200);
    await post(people.ann!.client, '/api/friend-requests', { receiverId: fay.id });
    await drained();
    expect(texts(phones.fay)).toEqual([
      `Wagers: Ann Lee sent you a friend request. ${app.url}/friends Reply STOP to opt out.`,
    ]);
  });

  it('a rebuild of every read model sends nothing again', async () => {
    await drained();
    const before = twilioApi.requests.length;
    await rebuild(app, allProjectors);
    await drained();
    expect(twilioApi.requests.length).toBe(before);
  });
});
