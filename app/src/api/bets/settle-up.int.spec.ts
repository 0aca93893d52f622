import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '@wagers/contracts/problem';
import type { Settlement, SettleUpEntry } from '@wagers/contracts/api/settle-up';
import {
  befriend,
  betsTestbed,
  completedBet,
  person,
  proposeTo,
  sync,
  type BetsTestbed,
  type Person,
} from './http-fixtures.ts';
import { rebuild } from './rebuild.ts';
import { settleUpProjector } from '@wagers/projection-service/settle-up/settle-up.projector';

let bed: BetsTestbed;
let alice: Person;
let bob: Person;
let carol: Person;
let eve: Person;

beforeAll(async () => {
  bed = await betsTestbed();
  ({ alice, bob } = bed);
  [carol, eve] = [await person(bed.app, 'Carol'), await person(bed.app, 'Eve')];
  await befriend(alice, carol);
});
afterAll(() => bed?.stop());

async function post(who: Person, betId: string, action: string) {
  const answer = await who.client.post<{ status: string } & Problem>(
    `/api/bets/${betId}/${action}`,
  );
  return answer;
}

async function settlement(who: Person, betId: string) {
  return who.client.get<Settlement>(`/api/bets/${betId}/settlement`);
}

async function card(who: Person): Promise<SettleUpEntry[]> {
  const answer = await who.client.get<SettleUpEntry[]>('/api/settle-up');
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

const entryFor = (entries: SettleUpEntry[], friend: Person) =>
  entries.find((entry) => entry.friend.id === friend.user.id);

describe('settling up a completed money bet', () => {
  it('the loser marks it paid and the winner confirms; both see it leave the card', async () => {
    const bet = await completedBet(alice, bob, 'creator_won', { wagerAmount: '12.50' });

    const owed = await settlement(bob, bet.id);
    expect(owed.status, owed.text).toBe(200);
    expect(owed.body).toEqual({
      betId: bet.id,
      title: 'Rain on Sunday',
      amountCents: 1250,
      amount: '12.50',
      winnerId: alice.user.id,
      loserId: bob.user.id,
      status: 'unpaid',
    });
    expect(entryFor(await card(alice), bob)).toMatchObject({ netCents: 1250, netAmount: '12.50' });
    expect(entryFor(await card(bob), alice)).toMatchObject({
      friend: { id: alice.user.id, firstName: 'Alice' },
      netCents: -1250,
      netAmount: '12.50',
      bets: [{ betId: bet.id, status: 'unpaid' }],
    });

    expect((await post(bob, bet.id, 'mark-paid')).status).toBe(200);
    sync(alice, bob);
    expect((await settlement(alice, bet.id)).body.status).toBe('marked_paid');
    // Marked paid still counts until the winner confirms it.
    expect(entryFor(await card(alice), bob)?.bets).toEqual([
      expect.objectContaining({ betId: bet.id, status: 'marked_paid' }),
    ]);

    expect((await post(alice, bet.id, 'confirm-receipt')).status).toBe(200);
    sync(alice, bob);
    expect((await settlement(bob, bet.id)).body.status).toBe('confirmed');
    expect(entryFor(await card(alice), bob)).toBeUndefined();
    expect(entryFor(await card(bob), alice)).toBeUndefined();
  });

  it('the winner says it did not arrive: it is owed again and may be marked paid anew', async () => {
    const bet = await completedBet(alice, bob, 'opponent_won', { wagerAmount: '5' });
    expect((await post(alice, bet.id, 'mark-paid')).status).toBe(200);
    const notReceived = await post(bob, bet.id, 'not-received');
    expect(notReceived.status, notReceived.text).toBe(200);
    sync(alice, bob);
    expect((await settlement(alice, bet.id)).body.status).toBe('unpaid');
    expect((await post(alice, bet.id, 'mark-paid')).status).toBe(200);
    sync(alice, bob);
    expect((await settlement(bob, bet.id)).body.status).toBe('marked_paid');
    expect((await post(bob, bet.id, 'confirm-receipt')).status).toBe(200);
  });

  it('refuses "not received" while nobody has said they paid: nothing is recorded', async () => {
    const bet = await completedBet(alice, bob, 'creator_won', { wagerAmount: '8' });
    const before = await bed.countEvents();
    const early = await post(alice, bet.id, 'not-received');
    expect(early.status, early.text).toBe(409);
    expect(early.body.message).toBe(
      'The loser has not marked this bet paid yet: there is no payment to report missing.',
    );
    expect(await bed.countEvents()).toBe(before);
    expect((await settlement(bob, bet.id)).body.status).toBe('unpaid');

    // Once reported missing it is owed again; the same report sent twice (a retry) is recorded once.
    expect((await post(bob, bet.id, 'mark-paid')).status).toBe(200);
    const reported = await bed.countEvents();
    expect((await post(alice, bet.id, 'not-received')).status).toBe(200);
    expect((await post(alice, bet.id, 'not-received')).status).toBe(200);
    expect(await bed.countEvents()).toBe(reported + 1);
    // Bob reads what Alice just wrote: his client carries her position, as a shared link would.
    sync(alice, bob);
    expect((await settlement(bob, bet.id)).body.status).toBe('unpaid');
  });

  it('nets what each side owes per friend, over every unpaid bet', async () => {
    const [dave, frank] = [await person(bed.app, 'Dave'), await person(bed.app, 'Frank')];
    await befriend(dave, frank);
    const won = await completedBet(dave, frank, 'creator_won', { wagerAmount: '20' });
    const lost = await completedBet(dave, frank, 'opponent_won', { wagerAmount: '7.25' });
    await completedBet(dave, frank, 'draw', { wagerAmount: '100' });
    await completedBet(dave, frank, 'creator_won', {
      wagerType: 'custom',
      wagerAmount: null,
      wagerDescription: 'Dinner',
    });
    const [entry] = await card(dave);
    expect(entry).toMatchObject({ friend: { id: frank.user.id }, netCents: 1275 });
    expect(entry?.netAmount).toBe('12.75');
    expect(entry?.bets.map((b) => b.betId).sort()).toEqual([won.id, lost.id].sort());
    expect((await card(frank))[0]).toMatchObject({ netCents: -1275, netAmount: '12.75' });
  });

  it('refuses the wrong side, an open bet, a draw and a stranger', async () => {
    const bet = await completedBet(alice, carol, 'creator_won');
    const winnerMarks = await post(alice, bet.id, 'mark-paid');
    expect(winnerMarks.status).toBe(403);
    expect(winnerMarks.body.detail).toMatch(/Only the loser/);
    const confirmsEarly = await post(alice, bet.id, 'confirm-receipt');
    expect(confirmsEarly.status).toBe(409);
    expect((await post(carol, bet.id, 'confirm-receipt')).status).toBe(403);
    expect((await post(carol, bet.id, 'not-received')).status).toBe(403);

    for (const action of ['mark-paid', 'confirm-receipt', 'not-received']) {
      expect((await post(eve, bet.id, action)).status).toBe(404);
    }
    expect((await settlement(eve, bet.id)).status).toBe(404);
    expect((await bed.app.anonymous().post(`/api/bets/${bet.id}/mark-paid`)).status).toBe(401);
    expect((await bed.app.anonymous().get(`/api/settle-up`)).status).toBe(401);

    const open = await proposeTo(alice, carol);
    expect((await post(carol, open.id, 'mark-paid')).status).toBe(409);
    expect((await settlement(carol, open.id)).status).toBe(404);

    const draw = await completedBet(alice, carol, 'draw');
    const drawPaid = await post(carol, draw.id, 'mark-paid');
    expect(drawPaid.status).toBe(409);
    expect(drawPaid.body.detail).toMatch(/draw/);
  });

  it('a confirmed bet stays settled; a repeated click changes nothing', async () => {
    const bet = await completedBet(alice, carol, 'opponent_won');
    expect((await post(alice, bet.id, 'mark-paid')).status).toBe(200);
    const before = await bed.countEvents();
    expect((await post(alice, bet.id, 'mark-paid')).status).toBe(200);
    expect(await bed.countEvents()).toBe(before);
    expect((await post(carol, bet.id, 'confirm-receipt')).status).toBe(200);
    expect((await post(carol, bet.id, 'confirm-receipt')).status).toBe(200);
    expect((await post(alice, bet.id, 'mark-paid')).status).toBe(409);
    expect((await post(carol, bet.id, 'not-received')).status).toBe(409);
  });

  it('a rebuild from the log answers exactly as before', async () => {
    const views = () => Promise.all([alice, bob, carol].map(card));
    // Each reads as of everyone's last write (Carol's confirmation in the test before included).
    sync(alice, bob, carol);
    const before = await views();
    expect(before.flat().length).toBeGreaterThan(0);
    await rebuild(bed.app, [settleUpProjector]);
    expect(await views()).toEqual(before);
  });
});
