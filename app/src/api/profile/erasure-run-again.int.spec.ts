import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateInviteResponse } from '@wagers/contracts/api/invites';
import type { User } from '@wagers/contracts/api/user';
import { reactionContext } from '@wagers/command-service/process-managers/process-manager';
import { accountErasure } from '@wagers/command-service/users/erase-account';
import { loadConfig } from '@wagers/platform/config';
import { createPool } from '@wagers/platform/db';
import { createEventStore } from '@wagers/platform/event-store/factory';
import { emailDigest } from '@wagers/platform/event-store/sealed-fields';
import { systemRuntime } from '@wagers/platform/runtime';
import { ApiClient, startTestApp, type TestApp } from '../../test-support/test-app.ts';
import { person } from '../bets/http-fixtures.ts';

/**
 * The erasure of a deleted account is run again when a step after the release failed or the
 * process stopped before its checkpoint. By then a new account may have signed up with the same
 * address: what is keyed by the address is that account's now, and the run again leaves it be.
 */
describe('the erasure run again after the address signed up anew', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.stop());

  it("keeps the new account's address key, its invitation's address and its sign-in link", async () => {
    const alice = await person(app, 'Alice');
    const gone = await person(app, 'Gone');
    const email = gone.user.email!;
    const deleted = await gone.client.request('DELETE', '/api/user', { confirmEmail: email });
    expect(deleted.status, deleted.text).toBe(200);
    await app.settled();

    const again = await app.signIn(email);
    const newcomer = (await again.get<User>('/api/auth/user')).body;
    expect(newcomer.id).not.toBe(gone.user.id);
    const invite = await alice.client.post<CreateInviteResponse>('/api/invites', {
      inviteeEmail: email,
    });
    expect(invite.status, invite.text).toBe(201);
    const link = await app.anonymous().askSignInLink(email);
    await app.drained();

    const pool = createPool(app.databaseUrl, 2);
    const store = createEventStore(loadConfig({}), pool, app.databaseUrl);
    const invitedAddress = async () => {
      const code = invite.body.code.split('.')[0]!;
      const sent = (await store.readStream(`invite-${code}`)).find((e) => e.type === 'InviteSent');
      return (sent?.data as { inviteeEmail?: string | null }).inviteeEmail;
    };
    try {
      expect(await invitedAddress()).toBe(email);
      // As the runner does when a step after the release threw: the same event again.
      const [accountDeleted] = (await store.readStream(`user-${gone.user.id}`)).filter(
        (event) => event.type === 'AccountDeleted',
      );
      const erasure = accountErasure(store, pool, { removeAllOf: () => Promise.resolve() });
      await erasure.react(accountDeleted!, reactionContext(accountDeleted!, systemRuntime));

      expect(await invitedAddress()).toBe(email);
      const keys = await pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM data_keys WHERE subject = $1',
        [`email:${emailDigest(email)}`],
      );
      expect(keys.rows[0]?.n).toBe(1);
    } finally {
      await store.close();
      await pool.end();
    }
    const browser = new ApiClient(app.url);
    const confirmed = await browser.confirmLink(link);
    expect(confirmed.status, confirmed.text).toBe(303);
    expect((await browser.get<User>('/api/auth/user')).body.id).toBe(newcomer.id);
  });
});
