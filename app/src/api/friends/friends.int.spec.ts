import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FriendRequest } from '@wagers/contracts/api/friends';
import type { User } from '@wagers/contracts/api/user';
import { startTestApp, type TestApp } from '../../test-support/test-app.ts';
import { catchUp, eventCount, named } from './friends-fixtures.ts';

describe('friend requests over HTTP', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('sends, lists and accepts a request; only the receiver may answer', async () => {
    const ann = await named(app, 'ann@example.com', 'Ann', 'Lee');
    const bob = await named(app, 'bob@example.com', 'Bob', 'Ray');
    const eve = await named(app, 'eve@example.com', 'Eve', 'Stranger');

    const sent = await ann.client.post<{ id: string; status: string }>('/api/friend-requests', {
      receiverId: bob.id,
    });
    expect(sent.status).toBe(201);
    expect(sent.body.status).toBe('pending');
    const requestId = sent.body.id;

    const annSees = await ann.client.get<FriendRequest[]>('/api/friend-requests');
    expect(annSees.body).toEqual([
      expect.objectContaining({
        id: requestId,
        senderId: ann.id,
        receiverId: bob.id,
        status: 'pending',
      }),
    ]);
    expect(annSees.body[0]!.sender.email).toBe('ann@example.com');
    expect(annSees.body[0]!.receiver).toMatchObject({ firstName: 'Bob', email: null });
    catchUp(bob, ann);
    const bobSees = await bob.client.get<FriendRequest[]>('/api/friend-requests');
    expect(bobSees.body[0]).toMatchObject({
      id: requestId,
      sender: { firstName: 'Ann', email: 'ann@example.com' },
    });
    expect((await eve.client.get<FriendRequest[]>('/api/friend-requests')).body).toEqual([]);

    const before = await eventCount(app);
    expect((await eve.client.post(`/api/friend-requests/${requestId}/accept`)).status).toBe(403);
    expect((await eve.client.post(`/api/friend-requests/${requestId}/decline`)).status).toBe(403);
    expect((await ann.client.post(`/api/friend-requests/${requestId}/accept`)).status).toBe(403);
    expect((await ann.client.post('/api/friend-requests', { receiverId: bob.id })).status).toBe(
      409,
    );
    expect(await eventCount(app)).toBe(before);

    const accepted = await bob.client.post<{ friendId: string }>(
      `/api/friend-requests/${requestId}/accept`,
    );
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('x-wagers-position')).toBeTruthy();
    expect(accepted.body.friendId).toBe(ann.id);

    const bobFriends = await bob.client.get<User[]>('/api/friends');
    expect(bobFriends.body).toEqual([
      expect.objectContaining({ id: ann.id, email: 'ann@example.com', firstName: 'Ann' }),
    ]);
    catchUp(ann, bob);
    const annFriends = await ann.client.get<User[]>('/api/friends');
    expect(annFriends.body.map((u) => u.id)).toEqual([bob.id]);
    expect((await bob.client.get<FriendRequest[]>('/api/friend-requests')).body).toEqual([]);
    expect((await eve.client.get<User[]>('/api/friends')).body).toEqual([]);

    // The same accept again (its answer lost, a second tab): the same answer, nothing written.
    const beforeAgain = await eventCount(app);
    const again = await bob.client.post(`/api/friend-requests/${requestId}/accept`);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(accepted.body);
    expect(await eventCount(app)).toBe(beforeAgain);
    expect((await bob.client.get<User[]>('/api/friends')).body.map((u) => u.id)).toEqual([ann.id]);
    expect((await bob.client.post('/api/friend-requests', { receiverId: ann.id })).status).toBe(
      409,
    );
  });

  it('makes two people friends when the receiver asks back', async () => {
    const cy = await named(app, 'cy@example.com', 'Cy', 'Ng');
    const dee = await named(app, 'dee@example.com', 'Dee', 'Ox');
    expect((await cy.client.post('/api/friend-requests', { receiverId: dee.id })).status).toBe(201);
    const back = await dee.client.post<{ status: string }>('/api/friend-requests', {
      receiverId: cy.id,
    });
    expect(back.status).toBe(201);
    expect(back.body.status).toBe('friends');
    catchUp(cy, dee);
    expect((await cy.client.get<User[]>('/api/friends')).body.map((u) => u.id)).toEqual([dee.id]);
    expect((await cy.client.get<FriendRequest[]>('/api/friend-requests')).body).toEqual([]);
  });

  it('lets the receiver decline, after which either may ask again', async () => {
    const fay = await named(app, 'fay@example.com', 'Fay', 'Po');
    const gus = await named(app, 'gus@example.com', 'Gus', 'Qi');
    const sent = await fay.client.post<{ id: string }>('/api/friend-requests', {
      receiverId: gus.id,
    });
    const declined = await gus.client.post(`/api/friend-requests/${sent.body.id}/decline`);
    expect(declined.status).toBe(200);
    const declinedAgain = await gus.client.post(`/api/friend-requests/${sent.body.id}/decline`);
    expect(declinedAgain.status, declinedAgain.text).toBe(200);
    expect(declinedAgain.body).toEqual(declined.body);
    catchUp(fay, gus);
    expect((await fay.client.get<FriendRequest[]>('/api/friend-requests')).body).toEqual([]);
    expect((await gus.client.get<User[]>('/api/friends')).body).toEqual([]);
    expect((await gus.client.post(`/api/friend-requests/${sent.body.id}/accept`)).status).toBe(404);
    const again = await fay.client.post<{ id: string }>('/api/friend-requests', {
      receiverId: gus.id,
    });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(sent.body.id);
  });

  it('refuses bad input with the field named, and writes nothing', async () => {
    const hal = await named(app, 'hal@example.com', 'Hal', 'Ro');
    const before = await eventCount(app);
    for (const body of [
      {},
      { receiverId: '' },
      { receiverId: 42 },
      { receiverId: 'not-a-uuid' },
      { receiverId: hal.id },
    ]) {
      const response = await hal.client.post('/api/friend-requests', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({ errors: [{ field: 'receiverId' }] });
    }
    const unknown = await hal.client.post('/api/friend-requests', {
      receiverId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
    expect((await hal.client.post('/api/friend-requests/garbage/accept')).status).toBe(404);
    expect(await eventCount(app)).toBe(before);
  });

  it('answers 401 to a caller who is not signed in', async () => {
    const anonymous = app.anonymous();
    expect((await anonymous.get('/api/friends')).status).toBe(401);
    expect((await anonymous.get('/api/friend-requests')).status).toBe(401);
    expect(
      (
        await anonymous.post('/api/friend-requests', {
          receiverId: '00000000-0000-4000-8000-000000000000',
        })
      ).status,
    ).toBe(401);
    expect((await anonymous.post('/api/friend-requests/x/accept')).status).toBe(401);
    expect((await anonymous.post('/api/friend-requests/x/decline')).status).toBe(401);
  });
});
