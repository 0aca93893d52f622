import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bet, BetHistoryEntry, Stats } from '@wagers/contracts/api/bets';
import type { Problem } from '@wagers/contracts/problem';
import type { TestApp } from '../../test-support/test-app.ts';
import {
  befriend,
  betInput,
  betsTestbed,
  person,
  proposeTo,
  sync,
  type BetsTestbed,
  type Person,
} from './http-fixtures.ts';

let bed: BetsTestbed;
let app: TestApp;
let alice: Person;
let bob: Person;
let eve: Person;

beforeAll(async () => {
  bed = await betsTestbed();
  ({ app, alice, bob } = bed);
  eve = await person(app, 'Eve');
});
afterAll(() => bed?.stop());

const eventCount = () => bed.countEvents();

async function betOf(who: Person, id: string): Promise<Bet> {
  const response = await who.client.get<Bet>(`/api/bets/${id}`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function activeBet(overrides: Parameters<typeof betInput>[0] = {}): Promise<Bet> {
  const bet = await proposeTo(alice, bob, overrides);
  const accepted = await bob.client.post(`/api/bets/${bet.id}/accept`);
  expect(accepted.status, accepted.text).toBe(200);
  sync(alice, bob);
  return bet;
}

describe('POST /api/bets', () => {
  it('proposes a money bet to a friend; both see it with every field, newest first', async () => {
    const older = await proposeTo(alice, bob, { title: 'Older' });
    const created = await proposeTo(alice, bob, {
      wagerAmount: '12.5',
      endDate: '2999-12-31',
      validationMode: 'one',
    });
    expect(created).toMatchObject({
      title: 'Rain on Sunday',
      wagerType: 'money',
      wagerAmount: '12.50',
      wagerAmountCents: 1250,
      wagerDescription: null,
      endDate: '2999-12-31',
      validationMode: 'one',
      status: 'pending',
      creatorId: alice.user.id,
      opponentId: bob.user.id,
      creator: { id: alice.user.id, firstName: 'Alice' },
      opponent: { id: bob.user.id, firstName: 'Bob' },
      creatorResolution: null,
      opponentResolution: null,
      winnerId: null,
      winner: null,
      invitee: null,
    });
    expect(await betOf(bob, created.id)).toEqual(created);
    for (const who of [alice, bob]) {
      const list = await who.client.get<Bet[]>('/api/bets');
      expect(list.status).toBe(200);
      const ids = list.body.map((b) => b.id);
      expect(ids.indexOf(created.id)).toBeLessThan(ids.indexOf(older.id));
    }
  });

  it('keeps money as exact cents', async () => {
    const big = await proposeTo(alice, bob, { wagerAmount: '123456789.99' });
    expect(big).toMatchObject({ wagerAmount: '123456789.99', wagerAmountCents: 12345678999 });
    expect(await betOf(alice, big.id)).toMatchObject({ wagerAmountCents: 12345678999 });
  });

  it('proposes a custom wager', async () => {
    const custom = await proposeTo(alice, bob, {
      wagerType: 'custom',
      wagerAmount: null,
      wagerDescription: 'Dinner at Chez Marie',
    });
    expect(custom).toMatchObject({
      wagerType: 'custom',
      wagerAmount: null,
      wagerAmountCents: null,
      wagerDescription: 'Dinner at Chez Marie',
    });
  });

  it.each([
    [{ title: '' }, 'title'],
    [{ title: 'x'.repeat(201) }, 'title'],
    [{ description: '' }, 'description'],
    [{ description: 'x'.repeat(1001) }, 'description'],
    [{ wagerAmount: null }, 'wagerAmount'],
    [{ wagerAmount: '12.345' }, 'wagerAmount'],
    [{ wagerAmount: '-1' }, 'wagerAmount'],
    [{ wagerAmount: 0 }, 'wagerAmount'],
    [{ wagerAmount: '0.00' }, 'wagerAmount'],
    [{ wagerAmount: 'ten' }, 'wagerAmount'],
    [{ wagerType: 'custom', wagerDescription: '' }, 'wagerDescription'],
    [{ wagerType: 'custom', wagerDescription: 'x'.repeat(501) }, 'wagerDescription'],
    [{ wagerType: 'stocks' }, 'wagerType'],
    [{ validationMode: 'whoever' }, 'validationMode'],
    [{ endDate: '2000-01-01' }, 'endDate'],
    [{ endDate: 'next week' }, 'endDate'],
    [{ opponentId: null }, 'opponentId'],
    [{ opponentId: null, inviteeEmail: 'not-an-email' }, 'inviteeEmail'],
    [{ opponentId: null, inviteePhone: '+14155550123' }, 'smsConsent'],
  ])('refuses %j with a 400 naming %s, and writes nothing', async (overrides, field) => {
    const before = await eventCount();
    const response = await alice.client.post<Problem>('/api/bets', {
      ...betInput({ opponentId: bob.user.id }),
      ...overrides,
    });
    expect(response.status, response.text).toBe(400);
    expect(response.body.errors?.map((e) => e.field)).toContain(field);
    expect(await eventCount()).toBe(before);
  });

  it('refuses a stranger as opponent (403) and yourself', async () => {
    const before = await eventCount();
    const stranger = await alice.client.post<Problem>(
      '/api/bets',
      betInput({ opponentId: eve.user.id }),
    );
    expect(stranger.status).toBe(403);
    expect(stranger.body.message).toBe('You can only propose a bet to one of your friends');
    const self = await alice.client.post<Problem>(
      '/api/bets',
      betInput({ opponentId: alice.user.id }),
    );
    expect(self.status).toBe(403);
    expect(await eventCount()).toBe(before);
  });

  it('needs a signed-in user', async () => {
    expect(
      (await app.anonymous().post('/api/bets', betInput({ opponentId: bob.user.id }))).status,
    ).toBe(401);
  });
});

describe('accept and decline', () => {
  it('the opponent accepts: the bet is active for both', async () => {
    const bet = await proposeTo(alice, bob);
    const accepted = await bob.client.post(`/api/bets/${bet.id}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ id: bet.id, status: 'active' });
    expect(accepted.headers.get('x-wagers-position')).toBeTruthy();
    sync(alice, bob);
    expect((await betOf(alice, bet.id)).status).toBe('active');
    const before = await eventCount();
    const again = await bob.client.post(`/api/bets/${bet.id}/accept`);
    expect(again.status, 'a retried accept answers like the first').toBe(200);
    expect(again.body).toEqual({ id: bet.id, status: 'active' });
    expect(await eventCount()).toBe(before);
    const decline = await bob.client.post<Problem>(`/api/bets/${bet.id}/decline`);
    expect(decline.status).toBe(409);
    expect(decline.body.message).toBe(
      'This bet is already active. Only a pending bet can be declined.',
    );
  });

  it('the opponent declines', async () => {
    const bet = await proposeTo(alice, bob);
    expect((await bob.client.post(`/api/bets/${bet.id}/decline`)).status).toBe(200);
    const again = await bob.client.post(`/api/bets/${bet.id}/decline`);
    expect(again.status, 'a retried decline answers like the first').toBe(200);
    expect(again.body).toEqual({ id: bet.id, status: 'declined' });
    sync(alice, bob);
    expect((await betOf(alice, bet.id)).status).toBe('declined');
    const accept = await bob.client.post<Problem>(`/api/bets/${bet.id}/accept`);
    expect(accept.status).toBe(409);
    expect(accept.body.message).toBe('This bet was declined. Only a pending bet can be accepted.');
  });

  it('the creator may do neither (403)', async () => {
    const bet = await proposeTo(alice, bob);
    const accept = await alice.client.post<Problem>(`/api/bets/${bet.id}/accept`);
    expect(accept.status).toBe(403);
    expect(accept.body.message).toBe('Only the invited opponent can accept this bet');
    expect((await alice.client.post(`/api/bets/${bet.id}/decline`)).status).toBe(403);
  });
});

describe('DELETE /api/bets/{id}', () => {
  it('the creator deletes a pending bet: it leaves every list, the history keeps it', async () => {
    const bet = await proposeTo(alice, bob, { title: 'To be deleted' });
    expect((await bob.client.delete(`/api/bets/${bet.id}`)).status).toBe(403);
    const deleted = await alice.client.delete(`/api/bets/${bet.id}`);
    expect(deleted.status).toBe(200);
    sync(alice, bob);
    for (const who of [alice, bob]) {
      const list = await who.client.get<Bet[]>('/api/bets');
      expect(list.body.map((b) => b.id)).not.toContain(bet.id);
      expect((await who.client.get(`/api/bets/${bet.id}`)).status).toBe(404);
      const history = await who.client.get<BetHistoryEntry[]>(`/api/bets/${bet.id}/history`);
      expect(history.status).toBe(200);
      expect(history.body.map((e) => e.type)).toEqual(['BetProposed', 'BetDeleted']);
      expect(history.body[1]?.summary).toBe('Alice Tester deleted the bet');
    }
    // Sent again (a retry whose answer was lost, a second click), it answers as the first did
    // and appends nothing; to the opponent the bet is not found.
    const events = await bed.countEvents();
    const again = await alice.client.delete<{ id: string; status: string }>(`/api/bets/${bet.id}`);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual({ id: bet.id, status: 'deleted' });
    expect(await bed.countEvents()).toBe(events);
    expect((await bob.client.delete(`/api/bets/${bet.id}`)).status).toBe(404);
  });

  it('refuses an active bet (409)', async () => {
    const bet = await activeBet();
    const response = await alice.client.delete<Problem>(`/api/bets/${bet.id}`);
    expect(response.status).toBe(409);
    expect(response.body.message).toBe(
      'This bet is already active. Only a pending bet can be deleted.',
    );
  });
});

describe('POST /api/bets/{id}/resolve', () => {
  it('mode both: agreement completes the bet with the winner', async () => {
    const bet = await activeBet();
    const first = await alice.client.post(`/api/bets/${bet.id}/resolve`, {
      resolution: 'opponent_won',
    });
    expect(first.body).toEqual({ id: bet.id, status: 'awaiting_resolution' });
    sync(alice, bob);
    expect(await betOf(bob, bet.id)).toMatchObject({
      status: 'awaiting_resolution',
      creatorResolution: 'opponent_won',
      opponentResolution: null,
    });
    const second = await bob.client.post(`/api/bets/${bet.id}/resolve`, {
      resolution: 'opponent_won',
    });
    expect(second.body).toEqual({ id: bet.id, status: 'completed' });
    sync(alice, bob);
    expect(await betOf(alice, bet.id)).toMatchObject({
      status: 'completed',
      creatorResolution: 'opponent_won',
      opponentResolution: 'opponent_won',
      winnerId: bob.user.id,
      winner: { id: bob.user.id, firstName: 'Bob' },
    });
  });

  it('mode both: a disagreement keeps it open with both answers, until they agree', async () => {
    const bet = await activeBet();
    await alice.client.post(`/api/bets/${bet.id}/resolve`, { resolution: 'creator_won' });
    const differing = await bob.client.post(`/api/bets/${bet.id}/resolve`, {
      resolution: 'opponent_won',
    });
    expect(differing.body).toEqual({ id: bet.id, status: 'awaiting_resolution' });
    sync(alice, bob);
    expect(await betOf(alice, bet.id)).toMatchObject({
      status: 'awaiting_resolution',
      creatorResolution: 'creator_won',
      opponentResolution: 'opponent_won',
      winnerId: null,
    });
    await alice.client.post(`/api/bets/${bet.id}/resolve`, { resolution: 'draw' });
    const agreed = await bob.client.post(`/api/bets/${bet.id}/resolve`, { resolution: 'draw' });
    expect(agreed.body).toEqual({ id: bet.id, status: 'completed' });
    sync(alice, bob);
    expect(await betOf(bob, bet.id)).toMatchObject({
      status: 'completed',
      winnerId: null,
      winner: null,
    });
    const history = await bob.client.get<BetHistoryEntry[]>(`/api/bets/${bet.id}/history`);
    expect(history.body.map((e) => e.type)).toEqual([
      'BetProposed',
      'BetAccepted',
      'ResolutionSubmitted',
      'ResolutionSubmitted',
      'ResolutionDisputed',
      'ResolutionSubmitted',
      'ResolutionDisputed',
      'ResolutionSubmitted',
      'BetCompleted',
    ]);
    expect(history.body[4]?.summary).toBe(
      'The answers differ (Alice Tester: Alice Tester won; Bob Tester: Bob Tester won); waiting for both to agree',
    );
    expect(history.body.at(-1)?.summary).toBe('Bet completed as a draw');
    const late = await alice.client.post<Problem>(`/api/bets/${bet.id}/resolve`, {
      resolution: 'creator_won',
    });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(
      'This bet is already completed. The outcome can no longer be changed.',
    );
  });

  it('mode one: the first answer decides', async () => {
    const bet = await activeBet({ validationMode: 'one' });
    const first = await bob.client.post(`/api/bets/${bet.id}/resolve`, {
      resolution: 'creator_won',
    });
    expect(first.body).toEqual({ id: bet.id, status: 'completed' });
    sync(alice, bob);
    expect(await betOf(alice, bet.id)).toMatchObject({
      status: 'completed',
      winnerId: alice.user.id,
      opponentResolution: 'creator_won',
    });
    expect(
      (await alice.client.post(`/api/bets/${bet.id}/resolve`, { resolution: 'opponent_won' }))
        .status,
    ).toBe(409);
  });

  it('refuses a pending bet (409) and a bad resolution (400)', async () => {
    const bet = await proposeTo(alice, bob);
    const pending = await alice.client.post<Problem>(`/api/bets/${bet.id}/resolve`, {
      resolution: 'draw',
    });
    expect(pending.status).toBe(409);
    expect(pending.body.message).toBe(
      'This bet is still waiting for the opponent to accept. Only an active bet can be resolved.',
    );
    const bad = await alice.client.post<Problem>(`/api/bets/${bet.id}/resolve`, {
      resolution: 'nobody',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0]?.field).toBe('resolution');
  });
});

describe('a stranger on someone else’s bet', () => {
  it('gets 404 for every call, and nothing changes', async () => {
    const bet = await activeBet();
    const before = await eventCount();
    const attempts = [
      eve.client.get(`/api/bets/${bet.id}`),
      eve.client.get(`/api/bets/${bet.id}/history`),
      eve.client.post(`/api/bets/${bet.id}/accept`),
      eve.client.post(`/api/bets/${bet.id}/decline`),
      eve.client.delete(`/api/bets/${bet.id}`),
      eve.client.post(`/api/bets/${bet.id}/resend-invite`),
      eve.client.post(`/api/bets/${bet.id}/resolve`, { resolution: 'draw' }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status, response.text).toBe(404);
      expect((response.body as Problem).message).toBe('Bet not found');
    }
    expect(await eventCount()).toBe(before);
    expect((await eve.client.get<Bet[]>('/api/bets')).body).toEqual([]);
  });

  it('gets the same 404 as for a bet that does not exist', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      expect((await eve.client.get<Problem>(`/api/bets/${id}`)).body.message).toBe('Bet not found');
      expect((await eve.client.post<Problem>(`/api/bets/${id}/accept`)).status).toBe(404);
    }
  });

  it('cannot call anything signed out', async () => {
    const bet = await proposeTo(alice, bob);
    const anonymous = app.anonymous();
    for (const response of await Promise.all([
      anonymous.get('/api/bets'),
      anonymous.get(`/api/bets/${bet.id}`),
      anonymous.get(`/api/bets/${bet.id}/history`),
      anonymous.get('/api/stats'),
      anonymous.post(`/api/bets/${bet.id}/accept`),
      anonymous.post(`/api/bets/${bet.id}/decline`),
      anonymous.delete(`/api/bets/${bet.id}`),
      anonymous.post(`/api/bets/${bet.id}/resend-invite`),
      anonymous.post(`/api/bets/${bet.id}/resolve`, { resolution: 'draw' }),
    ])) {
      expect(response.status).toBe(401);
    }
  });
});

describe('GET /api/stats and the history', () => {
  it('counts total, active (active and awaiting) and won bets, and friends', async () => {
    const carol = await person(app, 'Carol');
    const dan = await person(app, 'Dan');
    await befriend(carol, dan);
    const pending = await proposeTo(carol, dan);
    const active = await proposeTo(carol, dan);
    const awaiting = await proposeTo(carol, dan);
    const won = await proposeTo(carol, dan, { validationMode: 'one' });
    const deleted = await proposeTo(carol, dan);
    for (const bet of [active, awaiting, won]) await dan.client.post(`/api/bets/${bet.id}/accept`);
    await carol.client.post(`/api/bets/${awaiting.id}/resolve`, { resolution: 'creator_won' });
    await dan.client.post(`/api/bets/${won.id}/resolve`, { resolution: 'creator_won' });
    await carol.client.delete(`/api/bets/${deleted.id}`);
    sync(carol, dan);
    expect(pending.status).toBe('pending');
    const carolStats = await carol.client.get<Stats>('/api/stats');
    expect(carolStats.body).toEqual({ totalBets: 4, activeBets: 2, wonBets: 1, friendsCount: 1 });
    expect((await dan.client.get<Stats>('/api/stats')).body).toEqual({
      totalBets: 4,
      activeBets: 2,
      wonBets: 0,
      friendsCount: 1,
    });
    expect((await eve.client.get<Stats>('/api/stats')).body).toEqual({
      totalBets: 0,
      activeBets: 0,
      wonBets: 0,
      friendsCount: 0,
    });
  });

  it('shows every event in order with time, actor name and a summary', async () => {
    const bet = await activeBet({
      wagerType: 'custom',
      wagerAmount: null,
      wagerDescription: 'Dinner',
      validationMode: 'one',
    });
    await alice.client.post(`/api/bets/${bet.id}/resolve`, { resolution: 'creator_won' });
    sync(alice, bob);
    const history = await bob.client.get<BetHistoryEntry[]>(`/api/bets/${bet.id}/history`);
    expect(history.status).toBe(200);
    expect(
      history.body.map(({ revision, actorName, summary }) => ({ revision, actorName, summary })),
    ).toEqual([
      {
        revision: 0,
        actorName: 'Alice Tester',
        summary:
          'Alice Tester proposed "Rain on Sunday" to Bob Tester for Dinner (the first answer decides)',
      },
      { revision: 1, actorName: 'Bob Tester', summary: 'Bob Tester accepted the bet' },
      {
        revision: 2,
        actorName: 'Alice Tester',
        summary: 'Alice Tester reported the outcome: Alice Tester won',
      },
      { revision: 3, actorName: 'Alice Tester', summary: 'Bet completed: Alice Tester won' },
    ]);
    for (const entry of history.body) expect(Date.parse(entry.occurredAt)).not.toBeNaN();
  });
});
