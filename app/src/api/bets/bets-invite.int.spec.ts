import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bet, CreateBetResponse, Stats } from '@wagers/contracts/api/bets';
import type { InviteView } from '@wagers/contracts/api/invites';
import type { Problem } from '@wagers/contracts/problem';
import { eventually } from '@wagers/test-support/log';
import { inviteCodeOfLink } from '@wagers/test-support/invites';
import type { TestApp } from '../../test-support/test-app.ts';
import {
  betInput,
  betsTestbed,
  proposeTo,
  sync,
  type BetsTestbed,
  type Person,
} from './http-fixtures.ts';

let bed: BetsTestbed;
let app: TestApp;
let alice: Person;
let bob: Person;

beforeAll(async () => {
  bed = await betsTestbed();
  ({ app, alice, bob } = bed);
});
afterAll(() => bed?.stop());

const count = (where: string, params: unknown[] = []) => bed.countEvents(where, params);

const invitesForBet = (betId: string) =>
  count(`type = 'InviteSent' AND data->>'betId' = $1`, [betId]);

describe('a bet with a newcomer', () => {
  it('invites them with a link; they accept, become friends, and the bet is active', async () => {
    const created = await alice.client.post<CreateBetResponse>(
      '/api/bets',
      betInput({
        inviteeEmail: 'Nora@Example.com',
        wagerType: 'custom',
        wagerAmount: null,
        wagerDescription: 'A pizza',
      }),
    );
    expect(created.status, created.text).toBe(201);
    const bet = created.body;
    expect(bet).toMatchObject({
      status: 'pending',
      opponentId: null,
      opponent: null,
      invitee: 'nora@example.com',
    });
    const code = bet.invite?.code ?? '';
    expect(bet.invite?.inviteLink).toBe(`${app.url}/invite/${code}`);
    await eventually(async () => (await invitesForBet(bet.id)) === 1, 'the invite sent');
    expect(await alice.client.get<Bet>(`/api/bets/${bet.id}`).then((r) => r.body)).toEqual(
      Object.fromEntries(Object.entries(bet).filter(([key]) => key !== 'invite')),
    );

    const view = await app.anonymous().get<InviteView>(`/api/invites/${code}`);
    expect(view.status).toBe(200);
    expect(view.body.bet).toMatchObject({
      id: bet.id,
      title: 'Rain on Sunday',
      wagerDescription: 'A pizza',
    });

    const resent = await alice.client.post(`/api/bets/${bet.id}/resend-invite`);
    expect(resent.status, resent.text).toBe(200);
    await eventually(
      async () =>
        (await count(`type = 'InviteResent' AND data->>'code' = $1`, [inviteCodeOfLink(code)])) ===
        1,
      'the invite resent',
    );

    const nora = { client: await app.signIn('nora@example.com') } as Person;
    const accepted = await nora.client.post<{ betId: string }>(`/api/invites/${code}/accept`);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.betId).toBe(bet.id);
    // The same accept again (its answer lost, a second tab): the same answer, nothing written.
    await app.settled();
    const written = await count('true');
    const again = await nora.client.post(`/api/invites/${code}/accept`);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(accepted.body);
    await app.settled();
    expect(await count('true')).toBe(written);
    const byAnother = await bob.client.post<Problem>(`/api/invites/${code}/accept`);
    expect(byAnother.status).toBe(409);
    expect(byAnother.body.message).toBe('This invite has already been accepted');
    const seen = await nora.client.get<Bet>(`/api/bets/${bet.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({
      status: 'active',
      opponent: { email: 'nora@example.com' },
      invitee: null,
    });
    const noraId = seen.body.opponentId;
    sync(alice, nora);
    expect(await alice.client.get<Bet>(`/api/bets/${bet.id}`).then((r) => r.body)).toMatchObject({
      status: 'active',
      opponentId: noraId,
      invitee: null,
    });
    expect((await nora.client.get<Stats>('/api/stats')).body).toMatchObject({
      totalBets: 1,
      activeBets: 1,
      friendsCount: 1,
    });

    const lateResend = await alice.client.post<Problem>(`/api/bets/${bet.id}/resend-invite`);
    expect(lateResend.status).toBe(409);
    expect(lateResend.body.message).toMatch(/already active/);
    expect((await nora.client.post(`/api/bets/${bet.id}/resend-invite`)).status).toBe(403);
    expect(await count(`stream_id = $1 AND type = 'BetInviteAccepted'`, [`bet-${bet.id}`])).toBe(1);

    const resolved = await nora.client.post(`/api/bets/${bet.id}/resolve`, {
      resolution: 'opponent_won',
    });
    expect(resolved.body).toEqual({ id: bet.id, status: 'awaiting_resolution' });
  });

  it('invites by phone with SMS consent', async () => {
    const created = await alice.client.post<CreateBetResponse>(
      '/api/bets',
      betInput({ inviteePhone: '+1 415 555 0123', smsConsent: true }),
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body.invitee).toBe('+14155550123');
    expect(created.body.invite?.inviteLink).toContain('/invite/');
  });

  it('a deleted bet is not joined through its invite, but the two still become friends', async () => {
    const created = await alice.client.post<CreateBetResponse>(
      '/api/bets',
      betInput({ inviteeEmail: 'late@example.com' }),
    );
    expect((await alice.client.delete(`/api/bets/${created.body.id}`)).status).toBe(200);
    const invitePage = await alice.client.get(`/api/invites/${created.body.invite?.code ?? ''}`);
    expect(invitePage.status).toBe(404);
    const late = await app.signIn('late@example.com');
    const accepted = await late.post(`/api/invites/${created.body.invite?.code ?? ''}/accept`);
    expect(accepted.status, accepted.text).toBe(200);
    expect((await late.get(`/api/bets/${created.body.id}`)).status).toBe(404);
    expect((await late.get<Stats>('/api/stats')).body).toMatchObject({
      totalBets: 0,
      friendsCount: 1,
    });
  });

  it('resending is for the creator of a pending newcomer bet only', async () => {
    const withFriend = await proposeTo(alice, bob);
    const friendResend = await alice.client.post<Problem>(
      `/api/bets/${withFriend.id}/resend-invite`,
    );
    expect(friendResend.status).toBe(409);
    expect(friendResend.body.message).toMatch(/proposed to a friend/);
    expect((await bob.client.post(`/api/bets/${withFriend.id}/resend-invite`)).status).toBe(403);
  });
});

describe('Idempotency-Key on POST /api/bets/{id}/resend-invite', () => {
  const mailTo = async (address: string) =>
    ((await (await fetch(`${app.url}/api/dev/mail`)).json()) as { to: string }[]).filter(
      (mail) => mail.to === address,
    ).length;

  it('a retry with the same key answers as the first and sends nothing again', async () => {
    const newcomer = 'resend.retry@example.com';
    const created = await alice.client.post<CreateBetResponse>(
      '/api/bets',
      betInput({ inviteeEmail: newcomer }),
    );
    expect(created.status, created.text).toBe(201);
    const bet = created.body.id;
    await app.drained();
    expect(await mailTo(newcomer)).toBe(1);
    const path = `/api/bets/${bet}/resend-invite`;
    const headers = { 'Idempotency-Key': 'resend-once' };

    const first = await alice.client.post(path, {}, headers);
    expect(first.status, first.text).toBe(200);
    await app.drained();
    const written = await count('true');
    const again = await alice.client.post(path, {}, headers);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(first.body);
    await app.drained();
    expect(await count('true')).toBe(written);
    expect(await count(`stream_id = $1 AND type = 'BetInviteResent'`, [`bet-${bet}`])).toBe(1);
    expect(await mailTo(newcomer)).toBe(2);

    // A new key is a new resend; the key once used for this bet is refused for another.
    expect((await alice.client.post(path, {}, { 'Idempotency-Key': 'resend-twice' })).status).toBe(
      200,
    );
    const other = await alice.client.post<CreateBetResponse>(
      '/api/bets',
      betInput({ inviteeEmail: 'resend.other@example.com' }),
    );
    await app.settled();
    const reused = await alice.client.post<Problem>(
      `/api/bets/${other.body.id}/resend-invite`,
      {},
      headers,
    );
    expect(reused.status).toBe(409);
    expect(reused.body.message).toMatch(/already used to resend another invitation/);
    await app.drained();
    expect(await mailTo(newcomer)).toBe(3);
  });
});

describe('Idempotency-Key on POST /api/bets', () => {
  it('a retry with the same key returns the first answer and creates nothing', async () => {
    const headers = { 'Idempotency-Key': 'retry-1' };
    const first = await alice.client.post<CreateBetResponse>(
      '/api/bets',
      betInput({ opponentId: bob.user.id }),
      headers,
    );
    expect(first.status).toBe(201);
    const before = await count('true');
    const again = await alice.client.post<CreateBetResponse>(
      '/api/bets',
      betInput({ opponentId: bob.user.id }),
      headers,
    );
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('x-wagers-position')).toBe(first.headers.get('x-wagers-position'));
    expect(await count('true')).toBe(before);
  });

  it('answers the first answer even after the bet moved on', async () => {
    const headers = { 'Idempotency-Key': 'retry-after-accept' };
    const first = await alice.client.post<CreateBetResponse>(
      '/api/bets',
      betInput({ opponentId: bob.user.id }),
      headers,
    );
    sync(alice, bob);
    await bob.client.post(`/api/bets/${first.body.id}/accept`);
    const again = await alice.client.post<CreateBetResponse>(
      '/api/bets',
      betInput({ opponentId: bob.user.id }),
      headers,
    );
    expect(again.body).toEqual(first.body);
  });

  it('many concurrent sends with one key make one bet and one invitation', async () => {
    const headers = { 'Idempotency-Key': 'burst-1' };
    const body = betInput({ inviteeEmail: 'burst@example.com' });
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        alice.client.post<CreateBetResponse>('/api/bets', body, headers),
      ),
    );
    for (const response of responses) expect(response.status, response.text).toBe(201);
    const ids = new Set(responses.map((r) => r.body.id));
    const codes = new Set(responses.map((r) => r.body.invite?.code));
    expect(ids.size).toBe(1);
    expect(codes.size).toBe(1);
    const [betId] = [...ids];
    await eventually(async () => (await invitesForBet(betId!)) === 1, 'the invite sent');
    expect(await count(`stream_id = $1`, [`bet-${betId}`])).toBe(2);
    const list = await alice.client.get<Bet[]>('/api/bets');
    expect(list.body.filter((b) => b.invitee === 'burst@example.com')).toHaveLength(1);
  });

  it('refuses the same key for a different bet, takes another user’s same key, and checks the header', async () => {
    const headers = { 'Idempotency-Key': 'shared-key' };
    const first = await alice.client.post<CreateBetResponse>(
      '/api/bets',
      betInput({ opponentId: bob.user.id }),
      headers,
    );
    expect(first.status).toBe(201);
    const different = await alice.client.post<Problem>(
      '/api/bets',
      betInput({ opponentId: bob.user.id, title: 'Other' }),
      headers,
    );
    expect(different.status).toBe(409);
    expect(different.body.message).toMatch(/already used for a different bet/);
    const bobs = await bob.client.post<CreateBetResponse>(
      '/api/bets',
      betInput({ opponentId: alice.user.id }),
      headers,
    );
    expect(bobs.status).toBe(201);
    expect(bobs.body.id).not.toBe(first.body.id);
    const bad = await alice.client.post<Problem>(
      '/api/bets',
      betInput({ opponentId: bob.user.id }),
      { 'Idempotency-Key': 'x'.repeat(300) },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0]?.field).toBe('Idempotency-Key');
  });
});
