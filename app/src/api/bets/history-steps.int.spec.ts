import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BetHistoryEntry } from '@wagers/contracts/api/bets';
import {
  betsTestbed,
  completedBet,
  proposeTo,
  sync,
  type BetsTestbed,
  type Person,
} from './http-fixtures.ts';

let bed: BetsTestbed;
let alice: Person;
let bob: Person;

beforeAll(async () => {
  bed = await betsTestbed();
  ({ alice, bob } = bed);
});
afterAll(() => bed?.stop());

async function act(who: Person, betId: string, action: string, body?: unknown) {
  const answer = await who.client.post(`/api/bets/${betId}/${action}`, body);
  expect(answer.status, answer.text).toBe(200);
  sync(alice, bob);
}

/** What each participant reads on the bet page's history, oldest first. */
async function historyLines(who: Person, betId: string) {
  const history = await who.client.get<BetHistoryEntry[]>(`/api/bets/${betId}/history`);
  expect(history.status).toBe(200);
  return history.body.map((entry) => entry.summary);
}

describe('a bet history tells every step in words', () => {
  it('a standing report offered at proposal, a disagreement, and a draw offered and accepted', async () => {
    const bet = await proposeTo(alice, bob, { reportStands: true, wagerAmount: '5' });
    await act(bob, bet.id, 'accept');
    await act(alice, bet.id, 'resolve', { resolution: 'creator_won' });
    await act(bob, bet.id, 'resolve', { resolution: 'opponent_won' });
    await act(bob, bet.id, 'offer-draw');
    await act(alice, bet.id, 'accept-draw');
    const expected = [
      `Alice Tester proposed "Rain on Sunday" to Bob Tester for $5.00 (both must confirm the outcome; Alice Tester's report stands after 7 days without an answer)`,
      'Bob Tester accepted the bet',
      'Alice Tester reported the outcome: Alice Tester won',
      'Bob Tester reported the outcome: Bob Tester won',
      'The answers differ (Alice Tester: Alice Tester won; Bob Tester: Bob Tester won); waiting for both to agree',
      'Bob Tester offered to call it a draw',
      'Alice Tester accepted the draw',
      'Bet completed as a draw',
    ];
    expect(await historyLines(alice, bet.id)).toEqual(expected);
    expect(await historyLines(bob, bet.id)).toEqual(expected);
  });

  it('settling up: marked paid, not received, paid again, confirmed', async () => {
    const bet = await completedBet(alice, bob, 'opponent_won', { wagerAmount: '5' });
    await act(alice, bet.id, 'mark-paid');
    await act(bob, bet.id, 'not-received');
    await act(alice, bet.id, 'mark-paid');
    await act(bob, bet.id, 'confirm-receipt');
    expect((await historyLines(alice, bet.id)).slice(-5)).toEqual([
      'Bet completed: Bob Tester won',
      'Alice Tester marked the bet paid',
      'Bob Tester said the payment did not arrive',
      'Alice Tester marked the bet paid',
      'Bob Tester confirmed the payment arrived',
    ]);
  });
});
