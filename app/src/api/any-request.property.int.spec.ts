import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateBetResponse } from '@wagers/contracts/api/bets';
import type { User } from '@wagers/contracts/api/user';
import { startTestApp, type ApiClient, type TestApp } from '../test-support/test-app.ts';
import { betInput } from './bets/http-fixtures.ts';

/**
 * Random requests to every route, by signed-in people, strangers and visitors, with random
 * bodies and hostile path segments: the product never answers 5xx, and a refused request (4xx)
 * leaves no event behind (events carry the request's correlation id).
 */
describe('any request to any route', () => {
  let app: TestApp;
  let db: pg.Client;
  let alice: ApiClient;
  let bob: ApiClient;
  const ids: Record<'alice' | 'bob' | 'bet' | 'newcomerBet' | 'code', string> = {
    alice: '',
    bob: '',
    bet: '',
    newcomerBet: '',
    code: '',
  };

  beforeAll(async () => {
    app = await startTestApp();
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    alice = await app.signIn('alice.any@example.com');
    bob = await app.signIn('bob.any@example.com');
    ids.alice = (await alice.get<User>('/api/auth/user')).body.id;
    ids.bob = (await bob.get<User>('/api/auth/user')).body.id;
    await alice.post('/api/friend-requests', { receiverId: ids.bob });
    await bob.post('/api/friend-requests', { receiverId: ids.alice });
    ids.bet = (
      await alice.post<CreateBetResponse>('/api/bets', betInput({ opponentId: ids.bob }))
    ).body.id;
    const newcomerBet = await alice.post<CreateBetResponse>(
      '/api/bets',
      betInput({ inviteeEmail: 'nora.any@example.com' }),
    );
    ids.newcomerBet = newcomerBet.body.id;
    ids.code = newcomerBet.body.invite?.code ?? '';
  });
  afterAll(async () => {
    await db?.end();
    await app?.stop();
  });

  const segment = fc.oneof(
    fc.constantFrom(
      () => ids.bet,
      () => ids.newcomerBet,
      () => ids.code,
      () => ids.alice,
      () => ids.bob,
      () => randomUUID(),
    ),
    fc
      .constantFrom(
        '%00',
        'x%00y',
        '%ED%A0%80',
        '%E0%A4%A',
        '%ZZ',
        '..',
        '%2F',
        "'; DROP TABLE es_events; --",
        'a'.repeat(300),
        '0',
        '-1',
        '%F0%9F%8E%B2',
      )
      .map((text) => () => text),
  );
  const text = fc.oneof(
    fc.string(),
    fc.constantFrom(
      '',
      ' ',
      '\u0000',
      'x\u0000y',
      '\ud800',
      'nora.any@example.com',
      '+14155550100',
    ),
  );
  const value = fc.oneof(
    text,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom('12.50', '0', 'creator_won', 'draw', 'money', 'custom', 'both', 'one'),
  );
  const field = fc.constantFrom(
    'title',
    'description',
    'wagerType',
    'wagerAmount',
    'wagerDescription',
    'endDate',
    'validationMode',
    'opponentId',
    'inviteeEmail',
    'inviteePhone',
    'smsConsent',
    'resolution',
    'receiverId',
    'firstName',
    'lastName',
    'message',
    'email',
    'profileImageUrl',
  );
  const body = fc.oneof(
    fc.dictionary(field, value, { maxKeys: 6 }),
    fc.record({ base: fc.constant(true), patch: fc.dictionary(field, value, { maxKeys: 3 }) }),
    fc.constantFrom('not json', [], 42),
  );
  const isPatch = (payload: unknown): payload is { patch: Record<string, unknown> } =>
    typeof payload === 'object' && payload !== null && 'patch' in payload;
  type Route = [method: string, path: (id: string) => string];
  const routes: Route[] = [
    ['GET', () => '/api/auth/user'],
    ['GET', () => '/api/bets'],
    ['GET', (id) => `/api/bets/${id}`],
    ['GET', (id) => `/api/bets/${id}/history`],
    ['POST', () => '/api/bets'],
    ['POST', (id) => `/api/bets/${id}/accept`],
    ['POST', (id) => `/api/bets/${id}/decline`],
    ['DELETE', (id) => `/api/bets/${id}`],
    ['POST', (id) => `/api/bets/${id}/resend-invite`],
    ['POST', (id) => `/api/bets/${id}/resolve`],
    ['GET', () => '/api/stats'],
    ['GET', () => '/api/friends'],
    ['GET', () => '/api/friend-requests'],
    ['POST', () => '/api/friend-requests'],
    ['POST', (id) => `/api/friend-requests/${id}/accept`],
    ['POST', (id) => `/api/friend-requests/${id}/decline`],
    ['GET', (id) => `/api/users/search?query=${id}`],
    ['POST', () => '/api/invites'],
    ['GET', (id) => `/api/invites/${id}`],
    ['POST', (id) => `/api/invites/${id}/accept`],
    ['PUT', () => '/api/user'],
    ['PUT', () => '/api/avatar'],
    ['POST', () => '/api/avatar/upload-url'],
    ['POST', () => '/api/login/email'],
  ];
  const caller = fc.constantFrom<'alice' | 'bob' | 'visitor'>('alice', 'bob', 'visitor');

  it('never answers 5xx, and a refused request writes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        segment,
        body,
        caller,
        async ([method, path], id, payload, who) => {
          const correlationId = randomUUID();
          const client = who === 'alice' ? alice : who === 'bob' ? bob : app.anonymous();
          const sent = isPatch(payload)
            ? { ...betInput({ opponentId: ids.bob }), ...payload.patch }
            : payload;
          const response = await client.request(
            method,
            path(id()),
            method === 'GET' || method === 'DELETE' ? undefined : sent,
            { 'x-correlation-id': correlationId },
          );
          expect(response.status, `${method} ${path(id())}: ${response.text}`).toBeLessThan(500);
          if (response.status >= 400) {
            const written = await db.query<{ n: string }>(
              `SELECT count(*) AS n FROM es_events WHERE metadata->>'correlationId' = $1`,
              [correlationId],
            );
            expect(Number(written.rows[0]?.n), `${method} ${path(id())} wrote events`).toBe(0);
          }
        },
      ),
      { numRuns: 300 },
    );
  }, 300_000);
});
