import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bet, CreateBetResponse } from '@wagers/contracts/api/bets';
import type { User } from '@wagers/contracts/api/user';
import { eventually } from '@wagers/test-support/log';
import { inviteCodeOfLink } from '@wagers/test-support/invites';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { dropQueueKeys } from '@wagers/test-support/redis';
import { startChildService, type ChildService } from '../test-support/child-service.ts';
import { ApiClient, testRedisUrl } from '../test-support/test-app.ts';
import { betInput } from './bets/http-fixtures.ts';

/**
 * The product runs as a child process. To crash it between a command and a process manager's
 * next step, the test makes PostgreSQL hold the step's append (a trigger that sleeps on inserts
 * into the step's streams), kills the process with SIGKILL while the append waits, ends the held
 * statement, and starts the product again. After the restart every flow completes by itself,
 * exactly once: one account, one invite and one email, one friendship, one join, one resend.
 */
describe('process managers finish by themselves after a crash', () => {
  let database: TestDatabase;
  let db: pg.Client;
  let product: ChildService;
  const queuePrefix = `wagers-test-${randomBytes(4).toString('hex')}`;
  const start = () =>
    startChildService({
      entry: 'app/src/main.ts',
      databaseUrl: database.url,
      queuePrefix,
      env: { READ_YOUR_WRITES_TIMEOUT_MS: '15000' },
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    product = await start();
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
  }, 240_000);
  afterAll(async () => {
    await product?.stop();
    await db?.end();
    await database?.drop();
    await dropQueueKeys(testRedisUrl, queuePrefix);
  }, 120_000);

  const count = async (where: string, params: unknown[] = []) =>
    Number(
      (await db.query<{ n: string }>(`SELECT count(*) AS n FROM es_events WHERE ${where}`, params))
        .rows[0]?.n,
    );
  const mailsTo = async (email: string) =>
    ((await (await fetch(`${product.url}/api/dev/mail`)).json()) as { to: string }[]).filter(
      (mail) => mail.to === email,
    ).length;
  const client = () => new ApiClient(product.url, false);
  const signIn = async (email: string) => {
    const person = client();
    await person.signIn(email);
    return person;
  };
  /** Every person's client talks to whichever product process is running now. */
  const rebase = (person: ApiClient) => {
    const moved = new ApiClient(product.url, false);
    moved.cookie = person.cookie;
    return moved;
  };

  /** Appends to streams matching `pattern` wait inside PostgreSQL until released. */
  async function holdAppends(pattern: string) {
    await db.query(`
      CREATE OR REPLACE FUNCTION hold_append() RETURNS trigger AS $$
      BEGIN
        IF NEW.stream_id LIKE '${pattern}' THEN PERFORM pg_sleep(600); END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await db.query(
      'CREATE TRIGGER hold_append BEFORE INSERT ON es_events FOR EACH ROW EXECUTE FUNCTION hold_append()',
    );
  }

  /** Waits for a held append, kills the product, drops the held statement and starts again. */
  async function crashWhileHeld() {
    let pid: number | undefined;
    await eventually(async () => {
      const held = await db.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'PgSleep'`,
      );
      pid = held.rows[0]?.pid;
      return pid !== undefined;
    }, 'a process manager step held in PostgreSQL');
    await product.stop('SIGKILL');
    await db.query('SELECT pg_terminate_backend($1)', [pid]);
    await db.query('DROP TRIGGER hold_append ON es_events');
    product = await start();
  }

  let alice: ApiClient;
  let aliceId: string;

  it('registers the account when the crash came right after the sign-in', async () => {
    await holdAppends('user-%');
    const signedIn = await signIn('alice.crash@example.com');
    await crashWhileHeld();
    alice = rebase(signedIn);
    const me = await alice.get<User>('/api/auth/user');
    expect(me.status, me.text).toBe(200);
    expect(me.body.email).toBe('alice.crash@example.com');
    aliceId = me.body.id;
    expect(await count(`stream_id = $1 AND type = 'UserRegistered'`, [`user-${aliceId}`])).toBe(1);
  }, 360_000);

  /** Alice proposes a bet to a newcomer; resolves once its invite is out. */
  async function betForNewcomer(email: string) {
    const created = await alice.post<CreateBetResponse>(
      '/api/bets',
      betInput({ inviteeEmail: email }),
    );
    expect(created.status, created.text).toBe(201);
    return created.body;
  }

  it('sends a bet’s invite once when the crash came right after the proposal', async () => {
    await holdAppends('invite-%');
    const bet = await betForNewcomer('nora.crash@example.com');
    await crashWhileHeld();
    alice = rebase(alice);
    await eventually(
      async () => (await mailsTo('nora.crash@example.com')) === 1,
      'the invitation email',
    );
    expect(await count(`type = 'InviteSent' AND data->>'betId' = $1`, [bet.id])).toBe(1);
  }, 360_000);

  it('resends once when the crash came right after Resend Invite', async () => {
    const bet = await betForNewcomer('pat.crash@example.com');
    await eventually(async () => (await mailsTo('pat.crash@example.com')) === 1, 'the invitation');
    await holdAppends('invite-%');
    expect((await alice.post(`/api/bets/${bet.id}/resend-invite`)).status).toBe(200);
    await crashWhileHeld();
    alice = rebase(alice);
    await eventually(async () => (await mailsTo('pat.crash@example.com')) === 2, 'the resend');
    expect(
      await count(`type = 'InviteResent' AND data->>'code' = $1`, [
        inviteCodeOfLink(bet.invite!.code),
      ]),
    ).toBe(1);
  }, 360_000);

  for (const [step, pattern] of [
    ['before the friendship', 'friendship-%'],
    ['between the friendship and the join', 'bet-%'],
  ] as const) {
    it(`finishes an accepted invite once when the crash came ${step}`, async () => {
      const email = `${pattern.slice(0, 3)}.newcomer@example.com`;
      const bet = await betForNewcomer(email);
      await eventually(async () => (await mailsTo(email)) === 1, 'the invitation');
      const newcomer = await signIn(email);
      await holdAppends(pattern);
      const accepted = await newcomer.post(`/api/invites/${bet.invite?.code}/accept`);
      expect(accepted.status, accepted.text).toBe(200);
      await crashWhileHeld();
      alice = rebase(alice);
      const after = rebase(newcomer);
      const seen = await after.get<Bet>(`/api/bets/${bet.id}`);
      expect(seen.status, seen.text).toBe(200);
      expect(seen.body).toMatchObject({ status: 'active', creatorId: aliceId });
      const friends = await after.get<User[]>('/api/friends');
      expect(friends.body.map((friend) => friend.id)).toContain(aliceId);
      expect(await count(`type = 'BetInviteAccepted' AND stream_id = $1`, [`bet-${bet.id}`])).toBe(
        1,
      );
      expect(
        await count(`type = 'FriendshipStarted' AND data->>'inviteCode' = $1`, [
          inviteCodeOfLink(bet.invite!.code),
        ]),
      ).toBe(1);
    }, 360_000);
  }
});
