import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bet, CreateBetResponse, Stats } from '@wagers/contracts/api/bets';
import type { FriendRequest } from '@wagers/contracts/api/friends';
import type { CreateInviteResponse, InviteView } from '@wagers/contracts/api/invites';
import type { User } from '@wagers/contracts/api/user';
import { startTestApp, type ApiClient, type TestApp } from '../test-support/test-app.ts';
import { betInput } from './bets/http-fixtures.ts';

/**
 * Every command of the spec's call list, made by a client that keeps its session cookie and
 * nothing else (no position header, as curl, a script or a second tab): its next read shows it,
 * including what the process managers it set off did.
 */
describe('read-your-writes for a client that only keeps its cookie', () => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceId: string;
  let bobId: string;

  const me = async (client: ApiClient) => {
    const response = await client.get<User>('/api/auth/user');
    expect(response.status, response.text).toBe(200);
    return response.body;
  };
  const bet = async (client: ApiClient, id: string) => {
    const response = await client.get<Bet>(`/api/bets/${id}`);
    expect(response.status, response.text).toBe(200);
    return response.body;
  };
  const ok = (response: { status: number; text: string }) =>
    expect(response.status, response.text).toBeLessThan(300);

  beforeAll(async () => {
    app = await startTestApp();
    alice = await app.signIn('alice.ryw@example.com', { plain: true });
    bob = await app.signIn('bob.ryw@example.com', { plain: true });
    expect(alice.sendsPosition).toBe(false);
    aliceId = (await me(alice)).id;
    bobId = (await me(bob)).id;
  });
  afterAll(() => app?.stop());

  it('sees the account a sign-in made, and a renamed profile', async () => {
    const fresh = await app.signIn('carol.ryw@example.com', { plain: true });
    expect((await me(fresh)).email).toBe('carol.ryw@example.com');
    ok(await alice.put('/api/user', { firstName: 'Alice', lastName: 'Reed' }));
    expect(await me(alice)).toMatchObject({ firstName: 'Alice', lastName: 'Reed' });
  });

  it('sees a friend request sent, declined, sent again and accepted', async () => {
    ok(await alice.post('/api/friend-requests', { receiverId: bobId }));
    const sent = await alice.get<FriendRequest[]>('/api/friend-requests');
    expect(sent.body.map((r) => r.receiverId)).toContain(bobId);

    // Another person's view trails by the projection lag: let it catch up before Bob looks.
    await app.settled();
    const incoming = (await bob.get<FriendRequest[]>('/api/friend-requests')).body;
    const request = incoming.find((r) => r.senderId === aliceId);
    expect(request).toBeDefined();
    ok(await bob.post(`/api/friend-requests/${request!.id}/decline`));
    expect((await bob.get<FriendRequest[]>('/api/friend-requests')).body).toEqual([]);

    ok(await alice.post('/api/friend-requests', { receiverId: bobId }));
    await app.settled();
    const again = (await bob.get<FriendRequest[]>('/api/friend-requests')).body;
    const second = again.find((r) => r.senderId === aliceId);
    ok(await bob.post(`/api/friend-requests/${second!.id}/accept`));
    expect((await bob.get<User[]>('/api/friends')).body.map((u) => u.id)).toContain(aliceId);
    expect((await bob.get<Stats>('/api/stats')).body.friendsCount).toBe(1);
  });

  it('sees a bet proposed, accepted, resolved by both, declined and deleted', async () => {
    const proposed = await alice.post<CreateBetResponse>(
      '/api/bets',
      betInput({ opponentId: bobId }),
    );
    ok(proposed);
    const id = proposed.body.id;
    expect((await bet(alice, id)).status).toBe('pending');
    expect((await alice.get<Bet[]>('/api/bets')).body.map((b) => b.id)).toContain(id);

    ok(await bob.post(`/api/bets/${id}/accept`));
    expect((await bet(bob, id)).status).toBe('active');
    ok(await bob.post(`/api/bets/${id}/resolve`, { resolution: 'creator_won' }));
    expect((await bet(bob, id)).opponentResolution).toBe('creator_won');
    ok(await alice.post(`/api/bets/${id}/resolve`, { resolution: 'creator_won' }));
    expect(await bet(alice, id)).toMatchObject({ status: 'completed', winnerId: aliceId });

    const declined = await alice.post<CreateBetResponse>(
      '/api/bets',
      betInput({ opponentId: bobId }),
    );
    ok(await bob.post(`/api/bets/${declined.body.id}/decline`));
    expect((await bet(bob, declined.body.id)).status).toBe('declined');

    const deleted = await alice.post<CreateBetResponse>(
      '/api/bets',
      betInput({ opponentId: bobId }),
    );
    ok(await alice.delete(`/api/bets/${deleted.body.id}`));
    expect((await alice.get<Bet[]>('/api/bets')).body.map((b) => b.id)).not.toContain(
      deleted.body.id,
    );
    expect((await alice.get(`/api/bets/${deleted.body.id}`)).status).toBe(404);
  });

  it('sees a newcomer invited to a bet, and the newcomer sees the bet and the friend at once', async () => {
    const proposed = await alice.post<CreateBetResponse>(
      '/api/bets',
      betInput({ inviteeEmail: 'nora.ryw@example.com' }),
    );
    ok(proposed);
    const code = proposed.body.invite?.code ?? '';
    expect(await bet(alice, proposed.body.id)).toMatchObject({
      status: 'pending',
      invitee: 'nora.ryw@example.com',
    });
    ok(await alice.post(`/api/bets/${proposed.body.id}/resend-invite`));
    expect((await bet(alice, proposed.body.id)).status).toBe('pending');

    const nora = await app.signIn('nora.ryw@example.com', { plain: true });
    const accepted = await nora.post<{ betId: string }>(`/api/invites/${code}/accept`);
    ok(accepted);
    expect(await bet(nora, proposed.body.id)).toMatchObject({
      status: 'active',
      creatorId: aliceId,
      opponent: { email: 'nora.ryw@example.com' },
    });
    expect((await nora.get<User[]>('/api/friends')).body.map((u) => u.id)).toContain(aliceId);
    // The newcomer can act on the bet straight away: the join happened before this command.
    ok(await nora.post(`/api/bets/${proposed.body.id}/resolve`, { resolution: 'draw' }));
    expect((await bet(nora, proposed.body.id)).opponentResolution).toBe('draw');
  });

  it('sees a friend invite it sent', async () => {
    const sent = await alice.post<CreateInviteResponse>('/api/invites', {
      inviteeEmail: 'olga.ryw@example.com',
    });
    ok(sent);
    const view = await alice.get<InviteView>(`/api/invites/${sent.body.code}`);
    expect(view.status, view.text).toBe(200);
    expect(view.body.status).toBe('pending');
  });
});
