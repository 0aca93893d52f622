import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '@wagers/contracts/api/activity';
import { activityProjector } from '@wagers/projection-service/activity/activity.projector';
import {
  betsTestbed,
  completedBet,
  person,
  proposeTo,
  sync,
  type BetsTestbed,
  type Person,
} from '../bets/http-fixtures.ts';
import { rebuild } from '../bets/rebuild.ts';

let bed: BetsTestbed;
let alice: Person;
let bob: Person;

beforeAll(async () => {
  bed = await betsTestbed();
  ({ alice, bob } = bed);
});
afterAll(() => bed?.stop());

async function activity(who: Person, query = ''): Promise<ActivityEntry[]> {
  const answer = await who.client.get<ActivityEntry[]>(`/api/activity${query}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

const lines = (entries: ActivityEntry[]) => entries.map((entry) => entry.summary);

describe('GET /api/activity', () => {
  it('starts with the friendship, seen from each side', async () => {
    expect(lines(await activity(alice))).toEqual([
      'You and Bob Tester are now friends',
      'You sent a friend request to Bob Tester',
    ]);
    const bobs = await activity(bob);
    expect(lines(bobs)).toEqual([
      'You and Alice Tester are now friends',
      'Alice Tester sent you a friend request',
    ]);
    expect(bobs.every((entry) => entry.betId === null)).toBe(true);
  });

  it('shows each step of a bet to both, newest first, linking to the bet', async () => {
    const bet = await completedBet(alice, bob, 'opponent_won', { title: 'Chess match' });
    expect((await alice.client.post(`/api/bets/${bet.id}/mark-paid`)).status).toBe(200);
    expect((await bob.client.post(`/api/bets/${bet.id}/confirm-receipt`)).status).toBe(200);
    sync(alice, bob);
    const expected = [
      'Bob Tester confirmed the payment arrived',
      'Alice Tester marked the bet paid',
      'Bet completed: Bob Tester won',
      'Bob Tester reported the outcome: Bob Tester won',
      'Alice Tester reported the outcome: Bob Tester won',
      'Bob Tester accepted the bet',
      expect.stringMatching(/^Alice Tester proposed "Chess match" to Bob Tester for \$12\.50/),
    ];
    for (const who of [alice, bob]) {
      const entries = (await activity(who)).filter((entry) => entry.betId === bet.id);
      expect(lines(entries)).toEqual(expected);
      expect(entries.every((entry) => entry.betTitle === 'Chess match')).toBe(true);
    }
  });

  it('keeps a stranger out and forgets a deleted bet', async () => {
    const eve = await person(bed.app, 'Eve');
    const withdrawn = await proposeTo(alice, bob, { title: 'Withdrawn' });
    expect((await activity(bob)).some((entry) => entry.betId === withdrawn.id)).toBe(true);
    expect((await alice.client.delete(`/api/bets/${withdrawn.id}`)).status).toBe(200);
    sync(alice, bob);
    expect((await activity(bob)).some((entry) => entry.betId === withdrawn.id)).toBe(false);
    expect(await activity(eve)).toEqual([]);
    expect((await bed.app.anonymous().get('/api/activity')).status).toBe(401);
  });

  it('returns at most `limit` entries and refuses a bad limit', async () => {
    expect(await activity(alice, '?limit=3')).toHaveLength(3);
    const bad = await alice.client.get<{ detail: string }>('/api/activity?limit=500');
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/limit/);
  });

  it('a rebuild from the log answers exactly as before', async () => {
    // Both read as of everyone's last write.
    sync(alice, bob);
    const before = await Promise.all([alice, bob].map((who) => activity(who)));
    await rebuild(bed.app, [activityProjector]);
    expect(await Promise.all([alice, bob].map((who) => activity(who)))).toEqual(before);
  });
});
