import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@wagers/platform/auth/sessions';
import { eventually } from '@wagers/test-support/log';
import type { Bet } from '@wagers/contracts/api/bets';
import type { User } from '@wagers/contracts/api/user';
import { ApiClient, startTestApp, type TestApp } from '../../test-support/test-app.ts';
import { befriend, person, proposeTo } from '../bets/http-fixtures.ts';

/**
 * Until the erasure releases a deleted account's address, the address is still that account's: a
 * sign-in link to it, one sent before the deletion too, must not make a session of the deleted
 * account, through which it would accept bets or ask for friends.
 */
describe('signing in with the address of an account just deleted', () => {
  let app: TestApp;
  let db: pg.Client;
  /** How far this process's clock is off, as another process's may be. */
  let clockOffsetMs = 0;
  beforeAll(async () => {
    app = await startTestApp({
      runtime: { now: () => new Date(Date.now() + clockOffsetMs), newId: () => randomUUID() },
    });
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await app?.stop();
  });

  it('is refused for now, makes no session, and nothing is done as the deleted account', async () => {
    const alice = await person(app, 'Alice');
    const bob = await person(app, 'Bob');
    const carol = await person(app, 'Carol');
    const email = bob.user.email!;
    await befriend(alice, bob);
    const bet = await proposeTo(alice, bob);
    await app.settled();
    const link = await app.anonymous().askSignInLink(email);
    await app.settled();

    // The process managers are held back.
    await app.holdingFollowers(async () => {
      const deleted = await bob.client.request('DELETE', '/api/user', { confirmEmail: email });
      expect(deleted.status, deleted.text).toBe(200);

      const browser = new ApiClient(app.url);
      const refused = await browser.confirmLink(link);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(refused.text).toContain(
        'This email address belonged to an account that was just deleted. Try signing in again in a minute.',
      );
      expect(browser.cookie).toBeFalsy();
      expect((await browser.get('/api/auth/user')).status).toBe(401);
      const accepted = await browser.post(`/api/bets/${bet.id}/accept`);
      expect(accepted.status).toBe(401);
      const asked = await browser.post('/api/friend-requests', { receiverId: carol.user.id });
      expect(asked.status).toBe(401);
      const sessions = await db.query('SELECT 1 FROM sessions WHERE user_id = $1', [bob.user.id]);
      expect(sessions.rowCount).toBe(0);
    });
    await app.settled();
    const byBob = await db.query<{ type: string }>(
      `SELECT type FROM es_events WHERE metadata->>'actorId' = $1 AND global_position >
         (SELECT global_position FROM es_events
           WHERE type = 'AccountDeleted' AND stream_id = $2)`,
      [bob.user.id, `user-${bob.user.id}`],
    );
    // Only what the process managers did for the deletion: the release, the bet let go.
    expect(byBob.rows.map((row) => row.type).sort()).toEqual(['BetDeclined', 'EmailReleased']);
    const asAlice = await alice.client.get<Bet>(`/api/bets/${bet.id}`);
    expect(asAlice.body.status).toBe('declined');
  });

  it('leaves a link asked for after the deletion usable once the address is released', async () => {
    const dan = await person(app, 'Dan');
    const email = dan.user.email!;
    const browser = new ApiClient(app.url);
    const beforeDeletion = await app.anonymous().askSignInLink(email);

    const link = await app.holdingFollowers(async () => {
      const deleted = await dan.client.request('DELETE', '/api/user', { confirmEmail: email });
      expect(deleted.status, deleted.text).toBe(200);
      // The person signs up again at once, before the erasure has released the address.
      const asked = await browser.askSignInLink(email);
      const refused = await browser.confirmLink(asked);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('30');
      return asked;
    });
    await app.settled();
    // The deleted account's own link went with it.
    expect((await new ApiClient(app.url).confirmLink(beforeDeletion)).status).toBe(400);

    const signedIn = await browser.confirmLink(link);
    expect(signedIn.status, signedIn.text).toBe(303);
    const me = await browser.get<User>('/api/auth/user');
    expect(me.status, me.text).toBe(200);
    expect(me.body.id).not.toBe(dan.user.id);
    expect(me.body.email).toBe(email);
    // Still one sign-in per link.
    const again = await new ApiClient(app.url).confirmLink(link);
    expect(again.status).toBe(400);
  });

  it('sweeps the links asked for before the deletion and keeps those after, whatever the clocks of the processes that sent them', async () => {
    const hal = await person(app, 'Hal');
    const email = hal.user.email!;
    const browser = new ApiClient(app.url);
    try {
      // Sent by a process whose clock runs a minute ahead of the one that deletes the account.
      clockOffsetMs = 60_000;
      const beforeDeletion = await app.anonymous().askSignInLink(email);
      clockOffsetMs = 0;
      const [link, spare] = await app.holdingFollowers(async () => {
        const deleted = await hal.client.request('DELETE', '/api/user', { confirmEmail: email });
        expect(deleted.status, deleted.text).toBe(200);
        // Sent by a process whose clock runs a minute behind.
        clockOffsetMs = -60_000;
        const asked = await browser.askSignInLink(email);
        const another = await browser.askSignInLink(email);
        clockOffsetMs = 0;
        expect((await browser.confirmLink(asked)).status).toBe(503);
        return [asked, another];
      });
      await app.settled();

      const signedIn = await browser.confirmLink(link);
      expect(signedIn.status, signedIn.text).toBe(303);
      const me = await browser.get<User>('/api/auth/user');
      expect(me.status, me.text).toBe(200);
      expect(me.body.email).toBe(email);
      expect(me.body.id).not.toBe(hal.user.id);
      // The deleted account's link went with it.
      expect((await new ApiClient(app.url).confirmLink(beforeDeletion)).status).toBe(400);

      // A link kept through Hal's erasure is swept with the next account's, asked before it.
      const deleted = await browser.request('DELETE', '/api/user', { confirmEmail: email });
      expect(deleted.status, deleted.text).toBe(200);
      await app.settled();
      expect((await new ApiClient(app.url).confirmLink(spare)).status).toBe(400);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it("keeps the browser's own session through a refused sign-in, and ends it once one succeeds", async () => {
    const gail = await person(app, 'Gail');
    const frank = await person(app, 'Frank');
    const email = gail.user.email!;
    const franksCookie = frank.client.cookie;

    const link = await app.holdingFollowers(async () => {
      const deleted = await gail.client.request('DELETE', '/api/user', { confirmEmail: email });
      expect(deleted.status, deleted.text).toBe(200);
      // Frank, signed in, asks for a link to the address being released and follows it: refused
      // for now.
      const asked = await frank.client.askSignInLink(email);
      const refused = await frank.client.confirmLink(asked);
      expect(refused.status).toBe(503);
      expect(frank.client.cookie).toBe(franksCookie);
      const stillFrank = await frank.client.get<User>('/api/auth/user');
      expect(stillFrank.status, stillFrank.text).toBe(200);
      expect(stillFrank.body.id).toBe(frank.user.id);
      return asked;
    });
    await app.settled();

    // Released: the same link signs up a new account, and only now is Frank's session over.
    const signedIn = await frank.client.confirmLink(link);
    expect(signedIn.status, signedIn.text).toBe(303);
    const me = await frank.client.get<User>('/api/auth/user');
    expect(me.status, me.text).toBe(200);
    expect(me.body.email).toBe(email);
    expect(me.body.id).not.toBe(gail.user.id);
    const oldBrowser = new ApiClient(app.url);
    oldBrowser.cookie = franksCookie;
    expect((await oldBrowser.get('/api/auth/user')).status).toBe(401);
    const franks = await db.query('SELECT 1 FROM sessions WHERE user_id = $1', [frank.user.id]);
    expect(franks.rowCount).toBe(0);
  });

  it('ends the session made while the account was being deleted', async () => {
    const erin = await person(app, 'Erin');
    const email = erin.user.email!;
    const browser = new ApiClient(app.url);
    const link = await browser.askSignInLink(email);
    await app.settled();

    // Erin's new session waits inside PostgreSQL, after the sign-in found the account still
    // there, until the test lets go of an advisory lock.
    const HOLD = 18_042_026;
    await db.query(`
      CREATE OR REPLACE FUNCTION hold_sign_in() RETURNS trigger AS $$
      BEGIN
        IF NEW.user_id = '${erin.user.id}' THEN PERFORM pg_advisory_xact_lock_shared(${HOLD}); END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await db.query(
      'CREATE TRIGGER hold_sign_in BEFORE INSERT ON sessions FOR EACH ROW EXECUTE FUNCTION hold_sign_in()',
    );
    await db.query('SELECT pg_advisory_lock($1)', [HOLD]);
    // The erasure, which signs the account out everywhere too, is held back as well.
    try {
      await app.holdingFollowers(async () => {
        const confirming = browser.confirmLink(link);
        await eventually(async () => {
          const held = await db.query(
            `SELECT 1 FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event = 'advisory'`,
          );
          return held.rowCount === 1;
        }, 'the new session held in PostgreSQL');
        const deleted = await erin.client.request('DELETE', '/api/user', { confirmEmail: email });
        expect(deleted.status, deleted.text).toBe(200);
        await db.query('SELECT pg_advisory_unlock($1)', [HOLD]);

        const refused = await confirming;
        expect(refused.status).toBe(503);
        expect(refused.headers.get('retry-after')).toBe('30');
        // The session just ended is not handed to the browser (a cookie that clears is fine).
        const sessionCookies = refused.headers
          .getSetCookie()
          .filter(
            (line) =>
              line.startsWith(`${SESSION_COOKIE}=`) && !line.startsWith(`${SESSION_COOKIE}=;`),
          );
        expect(sessionCookies).toEqual([]);
        expect(browser.cookie).toBeFalsy();
        expect((await browser.get('/api/auth/user')).status).toBe(401);
        const sessions = await db.query('SELECT 1 FROM sessions WHERE user_id = $1', [
          erin.user.id,
        ]);
        expect(sessions.rowCount).toBe(0);
      });
    } finally {
      await db.query('SELECT pg_advisory_unlock_all()');
      await db.query('DROP TRIGGER IF EXISTS hold_sign_in ON sessions');
    }
  });
});
