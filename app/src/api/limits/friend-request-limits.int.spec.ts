import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@wagers/contracts/api/user';
import { limitRules } from '@wagers/platform/limits/rules';
import {
  startTestApp,
  type ApiClient,
  type ApiResponse,
  type TestApp,
} from '../../test-support/test-app.ts';

/**
 * Each friend request emails its receiver with the sender's own name: a script searching users
 * must not turn that into a mail cannon. Limited per sender, per hour and per day.
 */
describe('friend request limits', () => {
  let app: TestApp;
  let db: pg.Client;
  let offsetMs = 0;
  let counter = 0;

  beforeAll(async () => {
    app = await startTestApp({
      runtime: { now: () => new Date(Date.now() + offsetMs), newId: () => randomUUID() },
    });
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await app?.stop();
  });

  const someone = async (): Promise<{ client: ApiClient; id: string }> => {
    counter += 1;
    const client = await app.signIn(`friendly.${counter}@example.com`);
    const me = await client.get<User>('/api/auth/user');
    expect(me.status, me.text).toBe(200);
    return { client, id: me.body.id };
  };
  const people = async (n: number) => {
    const list = [];
    for (let i = 0; i < n; i++) list.push(await someone());
    return list;
  };
  const requestsSent = async () =>
    Number(
      (
        await db.query<{ n: string }>(
          `SELECT count(*) AS n FROM es_events WHERE type = 'FriendRequestSent'`,
        )
      ).rows[0]!.n,
    );
  const expectLimited = (response: ApiResponse, message: string) => {
    expect(response.status, response.text).toBe(429);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.body).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(response.text).toContain(message);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  };

  it('refuses the 21st request in an hour with 429 and Retry-After, appending nothing', async () => {
    const sender = await someone();
    const receivers = await people(21);
    for (const receiver of receivers.slice(0, 20)) {
      const sent = await sender.client.post('/api/friend-requests', { receiverId: receiver.id });
      expect(sent.status, sent.text).toBe(201);
    }
    const before = await requestsSent();
    const refused = await sender.client.post('/api/friend-requests', {
      receiverId: receivers[20]!.id,
    });
    expectLimited(refused, limitRules['friend-requests-per-sender'].message);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    expect(await requestsSent()).toBe(before);
    // The receiver sees no request from them.
    const theirs = await receivers[20]!.client.get<unknown[]>('/api/friend-requests');
    expect(theirs.body).toEqual([]);
    // Another sender is not held back by it.
    const other = await someone();
    const free = await other.client.post('/api/friend-requests', { receiverId: receivers[20]!.id });
    expect(free.status, free.text).toBe(201);
  });

  it('holds over any hour, not only a clock hour: 20 just before 05:00 leave none just after', async () => {
    const hour = 3600_000;
    // 04:59:00 of an hour to come.
    offsetMs = (Math.floor(Date.now() / hour) + 3) * hour - 60_000 - Date.now();
    const sender = await someone();
    const receivers = await people(22);
    for (const receiver of receivers.slice(0, 20)) {
      const sent = await sender.client.post('/api/friend-requests', { receiverId: receiver.id });
      expect(sent.status, sent.text).toBe(201);
    }
    // 05:00:30: a new clock hour, but the last hour holds all 20.
    offsetMs += 90_000;
    const refused = await sender.client.post('/api/friend-requests', {
      receiverId: receivers[20]!.id,
    });
    expectLimited(refused, limitRules['friend-requests-per-sender'].message);
    // Room for one more once a twentieth of 04:00's hour has passed out of the last hour: 05:03.
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(120);
    expect(wait).toBeLessThanOrEqual(150);
    offsetMs += wait * 1000;
    const later = await sender.client.post('/api/friend-requests', {
      receiverId: receivers[20]!.id,
    });
    expect(later.status, later.text).toBe(201);
    offsetMs = 0;
  });

  it('counts a request its friendship refuses against nothing', async () => {
    const sender = await someone();
    const [receiver, last] = await people(2);
    expect(
      (await sender.client.post('/api/friend-requests', { receiverId: receiver!.id })).status,
    ).toBe(201);
    // Asked already: 409, 25 times, none of them counted.
    for (let i = 0; i < 25; i++) {
      const again = await sender.client.post('/api/friend-requests', { receiverId: receiver!.id });
      expect(again.status, again.text).toBe(409);
    }
    const sent = await sender.client.post('/api/friend-requests', { receiverId: last!.id });
    expect(sent.status, sent.text).toBe(201);
  });

  it('caps one person at 50 requests a day, hour after hour', async () => {
    // The clock at 01:00 of a day to come: six hours on is the same day. Two hours apart, each
    // batch has an hour of its own.
    const day = 86_400_000;
    offsetMs = (Math.floor(Date.now() / day) + 2) * day + 3600_000 - Date.now();
    const sender = await someone();
    const receivers = await people(51);
    let next = 0;
    for (const batch of [20, 20, 10]) {
      for (let i = 0; i < batch; i++) {
        const sent = await sender.client.post('/api/friend-requests', {
          receiverId: receivers[next++]!.id,
        });
        expect(sent.status, sent.text).toBe(201);
      }
      offsetMs += 2 * 3600_000;
    }
    // 07:00: this hour has room, the day has none.
    const before = await requestsSent();
    const refused = await sender.client.post('/api/friend-requests', {
      receiverId: receivers[50]!.id,
    });
    expectLimited(refused, limitRules['friend-requests-per-sender-per-day'].message);
    expect(await requestsSent()).toBe(before);
  });
});
