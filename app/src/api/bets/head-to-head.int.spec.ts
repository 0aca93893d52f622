import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HeadToHead } from '@wagers/contracts/api/head-to-head';
import { headToHeadProjector } from '@wagers/projection-service/head-to-head/head-to-head.projector';
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

let bed: BetsTestbed;
let alice: Person;
let bob: Person;
let carol: Person;

beforeAll(async () => {
  bed = await betsTestbed();
  ({ alice, bob } = bed);
  carol = await person(bed.app, 'Carol');
  await befriend(alice, carol);
});
afterAll(() => bed?.stop());

async function recordOf(who: Person, other: Person): Promise<HeadToHead> {
  const answer = await who.client.get<HeadToHead>(`/api/head-to-head/${other.user.id}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

async function records(who: Person): Promise<HeadToHead[]> {
  const answer = await who.client.get<HeadToHead[]>('/api/head-to-head');
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

describe('head-to-head records', () => {
  it('is all zeros before any bet between the two completes', async () => {
    await proposeTo(alice, bob);
    expect(await recordOf(alice, bob)).toEqual({
      friendId: bob.user.id,
      wins: 0,
      losses: 0,
      draws: 0,
      netCents: 0,
    });
    expect(await records(alice)).toEqual([]);
  });

  it('counts wins, losses, draws and money net, mirrored for each side', async () => {
    await completedBet(alice, bob, 'creator_won', { wagerAmount: '20' });
    await completedBet(bob, alice, 'creator_won', { wagerAmount: '5.50' });
    await completedBet(alice, bob, 'opponent_won', {
      wagerType: 'custom',
      wagerAmount: null,
      wagerDescription: 'Dinner',
    });
    await completedBet(alice, bob, 'draw', { wagerAmount: '100' });
    await completedBet(alice, carol, 'creator_won', { wagerAmount: '1' });

    expect(await recordOf(alice, bob)).toEqual({
      friendId: bob.user.id,
      wins: 1,
      losses: 2,
      draws: 1,
      netCents: 1450,
    });
    expect(await recordOf(bob, alice)).toEqual({
      friendId: alice.user.id,
      wins: 2,
      losses: 1,
      draws: 1,
      netCents: -1450,
    });
    const all = await records(alice);
    expect(all).toHaveLength(2);
    expect(all).toContainEqual({
      friendId: carol.user.id,
      wins: 1,
      losses: 0,
      draws: 0,
      netCents: 100,
    });
  });

  it('asks for a signed-in caller and a well-formed id', async () => {
    const anonymous = await bed.app.anonymous().get(`/api/head-to-head/${bob.user.id}`);
    expect(anonymous.status).toBe(401);
    expect((await bed.app.anonymous().get('/api/head-to-head')).status).toBe(401);
    const bad = await alice.client.get<{ detail: string }>('/api/head-to-head/not-an-id');
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/userId/);
  });

  it('a stranger sees no record of bets they were not in', async () => {
    const eve = await person(bed.app, 'Eve');
    expect(await recordOf(eve, alice)).toMatchObject({ wins: 0, losses: 0, draws: 0 });
    expect(await records(eve)).toEqual([]);
  });

  it('a rebuild from the log answers exactly as before', async () => {
    // Each reads as of everyone's last write.
    sync(alice, bob, carol);
    const before = await Promise.all([alice, bob, carol].map(records));
    await rebuild(bed.app, [headToHeadProjector]);
    expect(await Promise.all([alice, bob, carol].map(records))).toEqual(before);
  });
});
