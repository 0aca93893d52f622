import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationPreferences } from '@wagers/contracts/api/notifications';
import type { PhoneSettings } from '@wagers/contracts/api/profile';
import { startTestApp, type ApiClient, type TestApp } from '../../test-support/test-app.ts';

/** The phone number and SMS consent on the profile, and the SMS switch of each kind. */
describe('phone number and SMS choices', () => {
  let app: TestApp;
  let ann: ApiClient;

  beforeAll(async () => {
    app = await startTestApp();
    ann = await app.signIn('ann@example.com');
  });
  afterAll(async () => {
    await app?.stop();
  });

  const fieldsOf = (body: unknown) =>
    (body as { errors: { field: string }[] }).errors.map((e) => e.field);

  it('is only for the signed-in person', async () => {
    const anonymous = app.anonymous();
    expect((await anonymous.get('/api/user/phone')).status).toBe(401);
    expect(
      (await anonymous.put('/api/user/phone', { phone: '+14155550123', smsConsent: true })).status,
    ).toBe(401);
    expect(
      (await anonymous.put('/api/notification-preferences', { kind: 'bet_proposed', sms: true }))
        .status,
    ).toBe(401);
  });

  it('starts with no number and no consent', async () => {
    const none = await ann.get<PhoneSettings>('/api/user/phone');
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ phone: null, smsConsent: false, consentedAt: null });
  });

  it('refuses a number not in international format, naming the field', async () => {
    for (const phone of ['4155550123', '+1 415 CALL ME', '+0123456789', '', 42]) {
      const answer = await ann.put('/api/user/phone', { phone, smsConsent: false });
      expect(answer.status, JSON.stringify(phone)).toBe(400);
      expect(fieldsOf(answer.body), JSON.stringify(phone)).toEqual(['phone']);
    }
    const consentAlone = await ann.put('/api/user/phone', { phone: null, smsConsent: true });
    expect(consentAlone.status).toBe(400);
    expect(fieldsOf(consentAlone.body)).toEqual(['smsConsent']);
    const noConsent = await ann.put('/api/user/phone', { phone: '+14155550123' });
    expect(noConsent.status).toBe(400);
    expect(fieldsOf(noConsent.body)).toEqual(['smsConsent']);
  });

  it('keeps the number in E.164, with the time consent was given', async () => {
    const without = await ann.put<PhoneSettings>('/api/user/phone', {
      phone: '+1 (415) 555-0123',
      smsConsent: false,
    });
    expect(without.status, without.text).toBe(200);
    expect(without.body).toEqual({ phone: '+14155550123', smsConsent: false, consentedAt: null });

    const before = Date.now();
    const consented = await ann.put<PhoneSettings>('/api/user/phone', {
      phone: '+14155550123',
      smsConsent: true,
    });
    expect(consented.body.smsConsent).toBe(true);
    expect(Date.parse(consented.body.consentedAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect((await ann.get<PhoneSettings>('/api/user/phone')).body).toEqual(consented.body);
  });

  it('withdraws consent when the number is removed', async () => {
    const removed = await ann.put<PhoneSettings>('/api/user/phone', {
      phone: null,
      smsConsent: false,
    });
    expect(removed.body).toEqual({ phone: null, smsConsent: false, consentedAt: null });
    const back = await ann.put<PhoneSettings>('/api/user/phone', {
      phone: '+14155550123',
      smsConsent: false,
    });
    expect(back.body.smsConsent).toBe(false);
  });

  it('refuses an invitation, or a bet, to the number on your own profile', async () => {
    const own = await ann.put<PhoneSettings>('/api/user/phone', {
      phone: '+14155550177',
      smsConsent: true,
    });
    expect(own.status, own.text).toBe(200);
    const typedAsOwn = '+1 415 555 0177';
    const invite = await ann.post('/api/invites', { inviteePhone: typedAsOwn, smsConsent: true });
    expect(invite.status, invite.text).toBe(400);
    expect(invite.body).toMatchObject({ message: 'You cannot invite yourself' });
    expect(fieldsOf(invite.body)).toEqual(['inviteePhone']);
    const bet = await ann.post('/api/bets', {
      title: 'Rain on Sunday',
      description: 'It will rain in Paris on Sunday',
      wagerType: 'custom',
      wagerDescription: 'Dinner',
      inviteePhone: typedAsOwn,
      smsConsent: true,
    });
    expect(bet.status, bet.text).toBe(400);
    expect(fieldsOf(bet.body)).toEqual(['inviteePhone']);
    expect((await ann.get<unknown[]>('/api/bets')).body).toEqual([]);
  });

  it('switches one kind on or off for text messages, apart from email', async () => {
    const on = await ann.put('/api/notification-preferences', { kind: 'bet_proposed', sms: true });
    expect(on.status, on.text).toBe(200);
    expect(on.body).toEqual({ kind: 'bet_proposed', sms: true });
    const preferences = await ann.get<NotificationPreferences>('/api/notification-preferences');
    expect(preferences.body).toContainEqual({ kind: 'bet_proposed', email: true, sms: true });
    expect(preferences.body).toContainEqual({ kind: 'bet_completed', email: true, sms: false });

    for (const body of [
      { kind: 'bet_proposed', email: true, sms: true },
      { kind: 'bet_proposed' },
      { kind: 'bet_proposed', sms: 'yes' },
    ]) {
      const refused = await ann.put('/api/notification-preferences', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
  });
});
