import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStoreDBClient, FORWARDS, START } from '@eventstore/db-client';
import type { Bet, CreateBetResponse } from '@wagers/contracts/api/bets';
import type { FriendRequest } from '@wagers/contracts/api/friends';
import type { CreateInviteResponse } from '@wagers/contracts/api/invites';
import type { User } from '@wagers/contracts/api/user';
import { betStream } from '@wagers/contracts/events/bet';
import { maxPosition } from '@wagers/contracts/position';
import { startEventStoreDbStandIn } from '@wagers/test-support/eventstoredb/server';
import { startTestApp, type ApiClient, type TestApp } from './test-support/test-app.ts';

interface Server {
  url: string;
  stop(): Promise<void>;
}

/** A real server when EVENTSTORE_URL names one; the in-memory stand-in (decision 0009) otherwise. */
async function startEventStoreDb(): Promise<Server> {
  const url = process.env.EVENTSTORE_URL;
  if (url) return { url, stop: () => Promise.resolve() };
  return startEventStoreDbStandIn();
}

/** Hands the newest position either person has seen to both, as if each had refreshed. */
function share(...clients: ApiClient[]): void {
  const newest = clients.reduce<string | null>((seen, c) => maxPosition(seen, c.position), null);
  for (const client of clients) client.position = newest;
}

async function named(app: TestApp, email: string, firstName: string) {
  const client = await app.signIn(email);
  expect((await client.put('/api/user', { firstName, lastName: 'Esdb' })).status).toBe(200);
  const me = await client.get<User>('/api/auth/user');
  expect(me.status, me.text).toBe(200);
  return { client, user: me.body };
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The whole product with EVENT_STORE=eventstoredb, as docker-compose.yml runs it: commands
 * append to EventStoreDB, and the projections and the notifier follow its $all. PostgreSQL
 * keeps only read models, checkpoints and sessions.
 */
describe('the product on EventStoreDB', () => {
  let eventStore: Server;
  let app: TestApp;
  let raw: EventStoreDBClient;

  beforeAll(async () => {
    eventStore = await startEventStoreDb();
    app = await startTestApp({
      env: { EVENT_STORE: 'eventstoredb', EVENTSTORE_URL: eventStore.url },
    });
    raw = EventStoreDBClient.connectionString(eventStore.url);
  }, 120_000);
  afterAll(async () => {
    await raw?.dispose();
    await app?.stop();
    await eventStore?.stop();
  }, 60_000);

  it('signs people in, makes them friends, and has a bet proposed and accepted', async () => {
    const ann = await named(app, `ann.${Date.now()}@example.com`, 'Ann');
    const bob = await named(app, `bob.${Date.now()}@example.com`, 'Bob');

    const asked = await ann.client.post<FriendRequest>('/api/friend-requests', {
      receiverId: bob.user.id,
    });
    expect(asked.status, asked.text).toBe(201);
    share(ann.client, bob.client);
    const pending = await bob.client.get<FriendRequest[]>('/api/friend-requests');
    expect(pending.body.map((r) => r.id)).toEqual([asked.body.id]);
    const befriended = await bob.client.post(`/api/friend-requests/${asked.body.id}/accept`);
    expect(befriended.status, befriended.text).toBe(200);
    share(ann.client, bob.client);
    expect((await ann.client.get<User[]>('/api/friends')).body.map((u) => u.id)).toEqual([
      bob.user.id,
    ]);

    const proposed = await ann.client.post<CreateBetResponse>('/api/bets', {
      title: 'Snow in April',
      description: 'It snows in Oslo on April 1st',
      wagerType: 'money',
      wagerAmount: '5.00',
      validationMode: 'both',
      opponentId: bob.user.id,
    });
    expect(proposed.status, proposed.text).toBe(201);
    const betId = proposed.body.id;
    share(ann.client, bob.client);
    expect((await bob.client.get<Bet>(`/api/bets/${betId}`)).body.status).toBe('pending');
    const accepted = await bob.client.post(`/api/bets/${betId}/accept`);
    expect(accepted.status, accepted.text).toBe(200);
    share(ann.client, bob.client);
    const seen = await ann.client.get<Bet>(`/api/bets/${betId}`);
    expect(seen.body).toMatchObject({
      status: 'active',
      creatorId: ann.user.id,
      opponentId: bob.user.id,
    });

    const stored = [];
    for await (const resolved of raw.readStream(betStream(betId), {
      direction: FORWARDS,
      fromRevision: START,
    }))
      stored.push(resolved.event?.type);
    expect(stored).toEqual(['BetProposed', 'BetAccepted']);
    const db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM es_events');
      expect(Number(rows[0]!.n)).toBe(0);
    } finally {
      await db.end();
    }
  });

  it('has the notifier deliver an invitation it read from $all', async () => {
    const cy = await named(app, `cy.${Date.now()}@example.com`, 'Cy');
    const invitee = `newcomer.${Date.now()}@example.com`;

    const sent = await cy.client.post<CreateInviteResponse>('/api/invites', {
      inviteeEmail: invitee,
    });
    expect(sent.status, sent.text).toBe(201);

    const mails = await eventually(
      async () =>
        (
          (await (await fetch(`${app.url}/api/dev/mail`)).json()) as { to: string; text: string }[]
        ).filter((mail) => mail.to === invitee),
      (found) => found.length > 0,
    );
    expect(mails.map((mail) => mail.text.includes(sent.body.inviteLink))).toEqual([true]);
  });
});
