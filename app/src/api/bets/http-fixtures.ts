import pg from 'pg';
import { expect } from 'vitest';
import type { CreateBetBody, CreateBetResponse } from '@wagers/contracts/api/bets';
import type { User } from '@wagers/contracts/api/user';
import { maxPosition } from '@wagers/contracts/position';
import { startTestApp, type ApiClient, type TestApp } from '../../test-support/test-app.ts';

/** Test-only helpers for the bets HTTP specs: people, friendships and bets through the real API. */
export interface Person {
  client: ApiClient;
  user: User;
}

let counter = 0;

export async function person(
  app: TestApp,
  firstName: string,
  lastName = 'Tester',
): Promise<Person> {
  counter += 1;
  const email = `${firstName.toLowerCase()}.${counter}.${Date.now()}@example.com`;
  const client = await app.signIn(email);
  const named = await client.put('/api/user', { firstName, lastName });
  expect(named.status, named.text).toBe(200);
  const me = await client.get<User>('/api/auth/user');
  expect(me.status, me.text).toBe(200);
  return { client, user: me.body };
}

/** A request each way: the second one makes them friends. */
export async function befriend(a: Person, b: Person): Promise<void> {
  const sent = await a.client.post('/api/friend-requests', { receiverId: b.user.id });
  expect(sent.status, sent.text).toBeLessThan(300);
  const back = await b.client.post('/api/friend-requests', { receiverId: a.user.id });
  expect(back.status, back.text).toBeLessThan(300);
  sync(a, b);
}

export const betInput = (overrides: Partial<CreateBetBody> = {}): CreateBetBody => ({
  title: 'Rain on Sunday',
  description: 'It will rain in Paris on Sunday',
  wagerType: 'money',
  wagerAmount: '12.50',
  validationMode: 'both',
  ...overrides,
});

export async function proposeTo(
  creator: Person,
  opponent: Person,
  overrides: Partial<CreateBetBody> = {},
) {
  const created = await creator.client.post<CreateBetResponse>(
    '/api/bets',
    betInput({ opponentId: opponent.user.id, ...overrides }),
  );
  expect(created.status, created.text).toBe(201);
  sync(creator, opponent);
  return created.body;
}

/** Shares what one client saw with the others, as if they had refreshed after it. */
export function sync(...people: Person[]): void {
  const newest = people.reduce<string | null>(
    (seen, p) => maxPosition(seen, p.client.position),
    null,
  );
  for (const p of people) p.client.position = newest;
}

export interface BetsTestbed {
  app: TestApp;
  /** Two friends. */
  alice: Person;
  bob: Person;
  /** A direct connection, to look at the event log itself. */
  db: pg.Client;
  /** Events in the log matching a SQL condition on es_events. */
  countEvents(where?: string, params?: unknown[]): Promise<number>;
  stop(): Promise<void>;
}

/** The whole app on a fresh database, with Alice and Bob signed in, named and friends. */
export async function betsTestbed(): Promise<BetsTestbed> {
  const app = await startTestApp();
  const db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  const [alice, bob] = [await person(app, 'Alice'), await person(app, 'Bob')];
  await befriend(alice, bob);
  return {
    app,
    alice,
    bob,
    db,
    async countEvents(where = 'true', params = []) {
      const result = await db.query<{ n: string }>(
        `SELECT count(*) AS n FROM es_events WHERE ${where}`,
        params,
      );
      return Number(result.rows[0]?.n);
    },
    async stop() {
      await db.end();
      await app.stop();
    },
  };
}

/** A bet from `creator` to `opponent`, accepted and agreed with `resolution` by both. */
export async function completedBet(
  creator: Person,
  opponent: Person,
  resolution: 'creator_won' | 'opponent_won' | 'draw',
  overrides: Parameters<typeof proposeTo>[2] = {},
) {
  const bet = await proposeTo(creator, opponent, overrides);
  for (const [who, path, body] of [
    [opponent, 'accept', undefined],
    [creator, 'resolve', { resolution }],
    [opponent, 'resolve', { resolution }],
  ] as const) {
    const answer = await who.client.post(`/api/bets/${bet.id}/${path}`, body);
    expect(answer.status, answer.text).toBe(200);
  }
  sync(creator, opponent);
  return bet;
}
