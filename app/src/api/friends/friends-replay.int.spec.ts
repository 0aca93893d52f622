import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateInviteResponse } from '@wagers/contracts/api/invites';
import { startTestApp, type TestApp } from '../../test-support/test-app.ts';
import { catchUp, named } from './friends-fixtures.ts';
import { createPool } from '@wagers/platform/db';
import type { EventStore } from '@wagers/platform/event-store/port';
import { loadConfig } from '@wagers/platform/config';
import { createEventStore } from '@wagers/platform/event-store/factory';
import { createLogger } from '@wagers/platform/logger';
import { applyToLiveBuild } from '@wagers/platform/projections/apply-to-live';
import { rebuildProjector } from '@wagers/projection-service/operator/projections';
import { invitesProjector } from '@wagers/projection-service/invites/invites.projector';
import { usersProjector } from '@wagers/projection-service/users/users.projector';
import { friendsProjector } from '@wagers/projection-service/friends/friends.projector';

type Person = Awaited<ReturnType<typeof named>>;

let app: TestApp;
let pool: ReturnType<typeof createPool>;
let store: EventStore;
let people: Person[];
const codes: string[] = [];

/** Everything the friends, search, user and invite calls answer, for everyone. */
async function everything(): Promise<unknown> {
  const views: Record<string, unknown> = {};
  for (const [i, who] of people.entries()) {
    for (const path of [
      '/api/auth/user',
      '/api/friends',
      '/api/friend-requests',
      '/api/users/search?query=e',
    ]) {
      views[`${i} ${path}`] = (await who.client.get(path)).body;
    }
  }
  for (const code of codes) views[code] = (await app.anonymous().get(`/api/invites/${code}`)).body;
  return views;
}

async function devOutboxSize(): Promise<number> {
  const mail = (await (await fetch(`${app.url}/api/dev/mail`)).json()) as unknown[];
  const sms = (await (await fetch(`${app.url}/api/dev/sms`)).json()) as unknown[];
  return mail.length + sms.length;
}

beforeAll(async () => {
  app = await startTestApp();
  pool = createPool(app.databaseUrl, 4);
  store = createEventStore(loadConfig({}), pool, app.databaseUrl);
  const [ann, bob, cy, dee] = [
    await named(app, 'ann@example.com', 'Ann', 'Lee'),
    await named(app, 'bob@example.com', 'Bob', 'Reed'),
    await named(app, 'cy@example.com', 'Cy', 'Eden'),
    await named(app, 'dee@example.com', 'Dee', 'Evans'),
  ];
  people = [ann, bob, cy, dee];
  const accepted = await ann.client.post<{ id: string }>('/api/friend-requests', {
    receiverId: bob.id,
  });
  catchUp(bob, ann);
  await bob.client.post(`/api/friend-requests/${accepted.body.id}/accept`);
  const declined = await cy.client.post<{ id: string }>('/api/friend-requests', {
    receiverId: ann.id,
  });
  catchUp(ann, cy);
  await ann.client.post(`/api/friend-requests/${declined.body.id}/decline`);
  await dee.client.post('/api/friend-requests', { receiverId: ann.id });
  await bob.client.put('/api/user', { firstName: 'Robert', lastName: 'Reed' });
  const toEve = await ann.client.post<CreateInviteResponse>('/api/invites', {
    inviteeEmail: 'eve@example.com',
    message: 'Hi',
  });
  const toPhone = await cy.client.post<CreateInviteResponse>('/api/invites', {
    inviteePhone: '+14155550123',
    smsConsent: true,
  });
  const eve = await named(app, 'eve@example.com', 'Eve', 'Stone');
  await eve.client.post(`/api/invites/${toEve.body.code}/accept`);
  people.push(eve);
  codes.push(toEve.body.code, toPhone.body.code);
  for (const reader of people) for (const writer of people) catchUp(reader, writer);
});
afterAll(async () => {
  await store?.close();
  await pool?.end();
  await app?.stop();
});

describe('friends, invites and users read models', () => {
  it('rebuild from the log to exactly the same answers, and no invitation goes out again', async () => {
    // Wait until both invitations and every notice (friend requests, an invitation accepted)
    // were delivered: the outbox holds at least the sign-ins and invitations and stops growing.
    const deadline = Date.now() + 20_000;
    await app.settled();
    let sent = -1;
    for (let size = await devOutboxSize(); size !== sent || size < people.length + 2;) {
      if (Date.now() > deadline) break;
      sent = size;
      await new Promise((resolve) => setTimeout(resolve, 500));
      size = await devOutboxSize();
    }
    const before = await everything();
    const logger = createLogger('silent');
    for (const projector of [usersProjector, friendsProjector, invitesProjector]) {
      await rebuildProjector(projector, {
        pool,
        store,
        connectionString: app.databaseUrl,
        logger,
        pollMs: 50,
      });
    }
    expect(await everything()).toEqual(before);
    // One more invitation after the rebuild: once it is out, anything the rebuild had set off would be too.
    const next = await people[0]!.client.post<CreateInviteResponse>('/api/invites', {
      inviteeEmail: 'fay@example.com',
    });
    expect(next.status).toBe(201);
    while ((await devOutboxSize()) < sent + 1 && Date.now() < deadline + 20_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await devOutboxSize()).toBe(sent + 1);
  });

  it('do not change when every event is applied a second time', async () => {
    const before = await everything();
    const events = await store.readAll({ maxCount: 10_000 });
    for (const projector of [usersProjector, friendsProjector, invitesProjector])
      await applyToLiveBuild(pool, projector, events);
    expect(await everything()).toEqual(before);
  });
});
