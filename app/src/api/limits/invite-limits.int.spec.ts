import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateBetResponse } from '@wagers/contracts/api/bets';
import type { ApiResponse } from '../../test-support/test-app.ts';
import { betInput, betsTestbed, person, type BetsTestbed } from '../bets/http-fixtures.ts';

/** What reaches other people's inboxes and phones is limited per sender and per recipient. */
describe('invitation limits', () => {
  let bed: BetsTestbed;

  beforeAll(async () => {
    bed = await betsTestbed();
  });
  afterAll(async () => {
    await bed?.stop();
  });

  const expectLimited = (response: ApiResponse) => {
    expect(response.status, response.text).toBe(429);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.body).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  };

  /** Messages in the development outbox to `to`, once `expected` of them have arrived. */
  async function delivered(kind: 'mail' | 'sms', to: string, expected: number) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const items = (await (await fetch(`${bed.app.url}/api/dev/${kind}`)).json()) as {
        to: string;
      }[];
      const mine = items.filter((item) => item.to === to);
      if (mine.length >= expected || Date.now() > deadline) return mine.length;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('sends one address at most 3 invitations a day, from everyone together', async () => {
    const to = 'often.invited@example.com';
    const sender = await person(bed.app, 'Sam');
    for (let i = 0; i < 3; i++)
      expect((await sender.client.post('/api/invites', { inviteeEmail: to })).status).toBe(201);
    const other = await person(bed.app, 'Olga');
    const sent = () => bed.countEvents(`type = 'InviteSent'`);
    const before = await sent();
    expectLimited(await sender.client.post('/api/invites', { inviteeEmail: to }));
    // Another sender, and a bet with an invitation, reach the same limit: it protects the inbox.
    expectLimited(
      await other.client.post('/api/invites', { inviteeEmail: 'Often.Invited@example.com' }),
    );
    expectLimited(await other.client.post('/api/bets', betInput({ inviteeEmail: to })));
    expect(await sent()).toBe(before);
    expect(await delivered('mail', to, 3)).toBe(3);
  });

  it('lets no more than the limit through a burst of concurrent invitations', async () => {
    const to = 'burst.target@example.com';
    const sender = await person(bed.app, 'Bea');
    const statuses = (
      await Promise.all(
        Array.from({ length: 8 }, () => sender.client.post('/api/invites', { inviteeEmail: to })),
      )
    ).map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
  });

  it('counts a resent bet invitation like a new one', async () => {
    const to = 'resent.to@example.com';
    const creator = await person(bed.app, 'Rita');
    const bet = await creator.client.post<CreateBetResponse>(
      '/api/bets',
      betInput({ inviteeEmail: to }),
    );
    expect(bet.status, bet.text).toBe(201);
    const resend = () => creator.client.post(`/api/bets/${bet.body.id}/resend-invite`);
    expect((await resend()).status).toBe(200);
    expect((await resend()).status).toBe(200);
    expectLimited(await resend());
    expect(await delivered('mail', to, 3)).toBe(3);
  });

  it('charges nothing for an invitation or a resend its bet refuses', async () => {
    const to = 'refused.bets@example.com';
    const creator = await person(bed.app, 'Paz');
    // Three bets refused for an end date gone by: none of the address's three a day is used.
    for (let i = 0; i < 3; i++) {
      const refused = await creator.client.post(
        '/api/bets',
        betInput({ inviteeEmail: to, endDate: '2000-01-01' }),
      );
      expect(refused.status, refused.text).toBe(400);
    }
    const bet = await creator.client.post<CreateBetResponse>(
      '/api/bets',
      betInput({ inviteeEmail: to }),
    );
    expect(bet.status, bet.text).toBe(201);
    // A deleted bet refuses its resends: they cost nothing either.
    expect((await creator.client.delete(`/api/bets/${bet.body.id}`)).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const resent = await creator.client.post(`/api/bets/${bet.body.id}/resend-invite`);
      expect(resent.status, resent.text).toBeGreaterThanOrEqual(400);
      expect(resent.status).not.toBe(429);
    }
    // So two of the three are left.
    for (let i = 0; i < 2; i++)
      expect((await creator.client.post('/api/invites', { inviteeEmail: to })).status).toBe(201);
    expectLimited(await creator.client.post('/api/invites', { inviteeEmail: to }));
  });

  it('counts a retried bet request (same Idempotency-Key) once', async () => {
    const to = 'retried@example.com';
    const creator = await person(bed.app, 'Ivy');
    const send = (key: string) =>
      creator.client.post('/api/bets', betInput({ inviteeEmail: to }), { 'Idempotency-Key': key });
    const burst = await Promise.all(Array.from({ length: 6 }, () => send('one-bet')));
    expect(burst.map((response) => response.status)).toEqual(Array(6).fill(201));
    expect((await send('second-bet')).status).toBe(201);
    expect((await send('third-bet')).status).toBe(201);
    expectLimited(await send('fourth-bet'));
  });

  it('counts an Idempotency-Key reused after it expired like a new invitation', async () => {
    const to = 'reused.key@example.com';
    const sender = await person(bed.app, 'Kim');
    const send = () =>
      sender.client.post<{ code: string }>(
        '/api/invites',
        { inviteeEmail: to },
        { 'Idempotency-Key': 'kept-too-long' },
      );
    const db = new pg.Client({ connectionString: bed.app.databaseUrl });
    await db.connect();
    try {
      const codes = new Set<string>();
      for (let i = 0; i < 3; i++) {
        const sent = await send();
        expect(sent.status, sent.text).toBe(201);
        codes.add(sent.body.code);
        // A retry within the day is the same invitation, counted once.
        const retried = await send();
        expect(retried.status, retried.text).toBe(201);
        expect(retried.body.code).toBe(sent.body.code);
        // A day and an hour go by for the key and its count (not for the address's counter).
        await db.query(`UPDATE idempotency_keys SET created_at = created_at - interval '25 hours'`);
        await db.query(`UPDATE rate_limit_once SET counted_at = counted_at - interval '25 hours'`);
      }
      // Each reuse after the key expired was a new invitation, each counted.
      expect(codes.size).toBe(3);
      const before = await bed.countEvents(`type = 'InviteSent'`);
      expectLimited(await send());
      expect(await bed.countEvents(`type = 'InviteSent'`)).toBe(before);
      expect(await delivered('mail', to, 3)).toBe(3);
    } finally {
      await db.end();
    }
  });

  it('caps one person at 20 invitations an hour', async () => {
    const sender = await person(bed.app, 'Vera');
    for (let i = 0; i < 20; i++) {
      const sent = await sender.client.post('/api/invites', { inviteeEmail: `v${i}@example.com` });
      expect(sent.status, sent.text).toBe(201);
    }
    expectLimited(await sender.client.post('/api/invites', { inviteeEmail: 'v20@example.com' }));
  });

  it('caps SMS at 10 a day per sender and 3 a day per number', async () => {
    const sender = await person(bed.app, 'Tom');
    const sms = (phone: string) =>
      sender.client.post('/api/invites', { inviteePhone: phone, smsConsent: true });
    for (let i = 0; i < 3; i++) expect((await sms('+14155550123')).status).toBe(201);
    expectLimited(await sms('+1 415 555 0123'));
    for (let i = 0; i < 7; i++) expect((await sms(`+1415555014${i}`)).status).toBe(201);
    expectLimited(await sms('+14155550150'));
    // Email invitations are still open to them.
    expect(
      (await sender.client.post('/api/invites', { inviteeEmail: 't@example.com' })).status,
    ).toBe(201);
    expect(await delivered('sms', '+14155550123', 3)).toBe(3);
  });
});
