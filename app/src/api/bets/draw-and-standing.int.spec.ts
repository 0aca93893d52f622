import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bet, BetTerms } from '@wagers/contracts/api/bets';
import type { ActivityEntry } from '@wagers/contracts/api/activity';
import {
  betsTestbed,
  person,
  proposeTo,
  sync,
  type BetsTestbed,
  type Person,
} from './http-fixtures.ts';

let bed: BetsTestbed;
let alice: Person;
let bob: Person;
let eve: Person;

beforeAll(async () => {
  bed = await betsTestbed();
  ({ alice, bob } = bed);
  eve = await person(bed.app, 'Eve');
});
afterAll(() => bed?.stop());

async function terms(who: Person, betId: string) {
  return who.client.get<BetTerms>(`/api/bets/${betId}/terms`);
}

async function act(who: Person, betId: string, action: string, body?: unknown) {
  const answer = await who.client.post<{ status: string; detail?: string }>(
    `/api/bets/${betId}/${action}`,
    body,
  );
  sync(alice, bob);
  return answer;
}

/** Alice and Bob report different winners. */
async function disputedBet(): Promise<string> {
  const bet = await proposeTo(alice, bob);
  expect((await act(bob, bet.id, 'accept')).status).toBe(200);
  expect((await act(alice, bet.id, 'resolve', { resolution: 'creator_won' })).status).toBe(200);
  expect((await act(bob, bet.id, 'resolve', { resolution: 'opponent_won' })).status).toBe(200);
  return bet.id;
}

describe('"if my friend has not answered 7 days after my report, my report stands"', () => {
  it('is off by default', async () => {
    const bet = await proposeTo(alice, bob);
    expect((await terms(bob, bet.id)).body).toEqual({
      reportStands: false,
      standsAt: null,
      drawOfferedBy: null,
      settledBy: null,
    });
  });

  it('the opponent sees it before accepting; the creator’s report starts the 7 days', async () => {
    const bet = await proposeTo(alice, bob, { reportStands: true });
    const seen = await terms(bob, bet.id);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body).toMatchObject({ reportStands: true, standsAt: null });
    expect((await act(bob, bet.id, 'accept')).status).toBe(200);

    const before = Date.now();
    expect((await act(alice, bet.id, 'resolve', { resolution: 'creator_won' })).status).toBe(200);
    const standsAt = Date.parse((await terms(bob, bet.id)).body.standsAt ?? '');
    const week = 7 * 24 * 60 * 60 * 1000;
    expect(standsAt).toBeGreaterThanOrEqual(before + week - 1000);
    expect(standsAt).toBeLessThanOrEqual(Date.now() + week);

    // Bob answers: nothing stands any more.
    expect((await act(bob, bet.id, 'resolve', { resolution: 'opponent_won' })).status).toBe(200);
    expect((await terms(alice, bet.id)).body.standsAt).toBeNull();
  });

  it('is dropped on a bet where the first report decides', async () => {
    const bet = await proposeTo(alice, bob, { reportStands: true, validationMode: 'one' });
    expect((await terms(alice, bet.id)).body.reportStands).toBe(false);
  });

  it('is shown to the two participants only', async () => {
    const bet = await proposeTo(alice, bob, { reportStands: true });
    expect((await terms(eve, bet.id)).status).toBe(404);
    expect((await terms(alice, 'not-a-bet')).status).toBe(404);
    expect((await bed.app.anonymous().get(`/api/bets/${bet.id}/terms`)).status).toBe(401);
  });

  it('is gone with a bet its creator deleted, as the bet is', async () => {
    const bet = await proposeTo(alice, bob, { reportStands: true });
    expect((await terms(bob, bet.id)).status).toBe(200);
    expect((await alice.client.request('DELETE', `/api/bets/${bet.id}`)).status).toBe(200);
    sync(alice, bob);
    expect((await bob.client.get(`/api/bets/${bet.id}`)).status).toBe(404);
    const gone = await terms(bob, bet.id);
    expect(gone.status, gone.text).toBe(404);
    expect((await terms(alice, bet.id)).status).toBe(404);
  });
});

describe('calling it a draw', () => {
  it('Bob offers, Alice accepts: the bet completes as a draw, and both see each step', async () => {
    const betId = await disputedBet();
    const offered = await act(bob, betId, 'offer-draw');
    expect(offered.status, JSON.stringify(offered.body)).toBe(200);
    expect((await terms(alice, betId)).body.drawOfferedBy).toBe(bob.user.id);

    const accepted = await act(alice, betId, 'accept-draw');
    expect(accepted.body.status).toBe('completed');
    const bet = (await alice.client.get<Bet>(`/api/bets/${betId}`)).body;
    expect(bet).toMatchObject({ status: 'completed', winnerId: null });
    expect((await terms(bob, betId)).body).toMatchObject({
      settledBy: 'draw',
      drawOfferedBy: null,
    });

    for (const who of [alice, bob]) {
      const lines = (await who.client.get<ActivityEntry[]>('/api/activity')).body
        .filter((entry) => entry.betId === betId)
        .map((entry) => entry.summary);
      expect(lines.slice(0, 3)).toEqual([
        'Bet completed as a draw',
        'Alice Tester accepted the draw',
        'Bob Tester offered to call it a draw',
      ]);
    }
  });

  it('ignoring the offer leaves the disagreement; a new report withdraws it', async () => {
    const betId = await disputedBet();
    expect((await act(alice, betId, 'offer-draw')).status).toBe(200);
    expect((await act(bob, betId, 'resolve', { resolution: 'creator_won' })).body.status).toBe(
      'completed',
    );
    const after = await act(bob, betId, 'accept-draw');
    expect(after.status).toBe(409);
  });

  it('refuses an offer outside a disagreement, one’s own offer, and strangers', async () => {
    const open = await proposeTo(alice, bob);
    expect((await act(alice, open.id, 'offer-draw')).status).toBe(409);

    const betId = await disputedBet();
    expect((await act(alice, betId, 'offer-draw')).status).toBe(200);
    const own = await act(alice, betId, 'accept-draw');
    expect(own.status).toBe(409);
    expect(own.body.detail).toMatch(/No draw has been offered to you/);
    const twice = await act(bob, betId, 'offer-draw');
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toMatch(/accept it instead/);
    expect((await eve.client.post(`/api/bets/${betId}/offer-draw`)).status).toBe(404);
    expect((await eve.client.post(`/api/bets/${betId}/accept-draw`)).status).toBe(404);
  });
});
