import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bet, CreateBetResponse } from '@wagers/contracts/api/bets';
import type { User } from '@wagers/contracts/api/user';
import { loadConfig } from '@wagers/platform/config';
import { createLogger } from '@wagers/platform/logger';
import { startWagers, type RunningWagers } from '../../server.ts';
import {
  ApiClient,
  startTestApp,
  testRedisUrl,
  type TestApp,
} from '../../test-support/test-app.ts';
import { befriend, betInput, person, type Person } from '../bets/http-fixtures.ts';
import { startSlowProxy, type SlowProxy } from '@wagers/test-support/slow-proxy';
import { dropQueueKeys } from '@wagers/test-support/redis';

/**
 * Two processes answering /api on one database, as production runs its services: each keeps the
 * sessions it has read, and a change made through one is seen by the other on the very next call.
 */
describe('sessions across processes', () => {
  let app: TestApp;
  let other: RunningWagers;
  let bob: Person;
  let network: SlowProxy;

  /** The same browser, its next call answered by the other process. */
  const elsewhere = (client: ApiClient, options: { plain?: boolean } = {}) => {
    const copy = new ApiClient(other.url, !options.plain);
    copy.cookie = client.cookie;
    return copy;
  };
  const me = (client: ApiClient) => client.get<User>('/api/auth/user');

  /** The other process's queues, dropped with their keys at the end as the test app's are. */
  const otherQueues = `wagers-test-other-${Date.now()}`;

  beforeAll(async () => {
    app = await startTestApp();
    // The other process reaches the database through a proxy that can slow what it hears.
    network = await startSlowProxy(app.database.url);
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: '0',
      DATABASE_URL: network.url,
      REDIS_URL: testRedisUrl,
      QUEUE_PREFIX: otherQueues,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DEV_INBOX: 'true',
      READ_YOUR_WRITES_TIMEOUT_MS: '15000',
    });
    other = await startWagers(config, createLogger(config.LOG_LEVEL));
    bob = await person(app, 'Bob');
  });
  afterAll(async () => {
    await other?.stop();
    await dropQueueKeys(testRedisUrl, otherQueues);
    await network?.stop();
    await app?.stop();
  });

  it('a sign-out through one process is refused at once by the other, which had the session', async () => {
    const alice = await app.signIn('alice.processes@example.com');
    const there = elsewhere(alice);
    expect((await me(there)).status).toBe(200);
    expect((await me(there)).status).toBe(200);

    const out = await alice.post('/api/logout');
    expect(out.status).toBe(303);
    expect((await me(there)).status).toBe(401);
    const refused = await there.post('/api/bets', betInput({ opponentId: bob.user.id }));
    expect(refused.status).toBe(401);
  });

  it('a sign-out is refused by the other process even when word of it reaches that process late', async () => {
    const alice = await app.signIn('alice.late@example.com');
    const there = elsewhere(alice);
    expect((await me(there)).status).toBe(200);
    expect((await me(there)).status).toBe(200);

    // What the database sends the other process now takes 300 ms on the way, notifications too.
    network.delayMs = 300;
    try {
      expect((await alice.post('/api/logout')).status).toBe(303);
      expect((await me(there)).status).toBe(401);
    } finally {
      network.delayMs = 0;
    }
  });

  it('a bet proposed through one process is in the list the other answers next, to a cookie-only client', async () => {
    const carol = await person(app, 'Carol');
    await befriend(carol, bob);
    const there = elsewhere(carol.client, { plain: true });
    const before = await there.get<Bet[]>('/api/bets');
    expect(before.status).toBe(200);

    const created = await carol.client.post<CreateBetResponse>(
      '/api/bets',
      betInput({ opponentId: bob.user.id, title: 'Sun on Monday' }),
    );
    expect(created.status, created.text).toBe(201);
    const after = await there.get<Bet[]>('/api/bets');
    expect(after.headers.get('x-wagers-stale')).toBeNull();
    expect(after.body.map((bet) => bet.id)).toContain(created.body.id);
  });

  it('a process that has the session sees its own writes next, one after another', async () => {
    const dave = await person(app, 'Dave');
    await befriend(dave, bob);
    const there = elsewhere(dave.client, { plain: true });
    const titles: string[] = [];
    for (const title of ['One', 'Two', 'Three']) {
      const created = await there.post('/api/bets', betInput({ opponentId: bob.user.id, title }));
      expect(created.status, created.text).toBe(201);
      titles.unshift(title);
      const listed = await there.get<Bet[]>('/api/bets');
      expect(listed.body.map((bet) => bet.title)).toEqual(titles);
      // And in the first process, which has the session too.
      const first = new ApiClient(app.url, false);
      first.cookie = dave.client.cookie;
      expect((await first.get<Bet[]>('/api/bets')).body.map((bet) => bet.title)).toEqual(titles);
    }
  });
});
