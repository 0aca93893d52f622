import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateInviteResponse } from '@wagers/contracts/api/invites';
import { betsTestbed, person, proposeTo, sync, type BetsTestbed } from '../bets/http-fixtures.ts';

const evil = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

/** What a page on another site can make the visitor's browser send, with the visitor's cookie. */
describe('state-changing requests from another site', () => {
  let bed: BetsTestbed;

  beforeAll(async () => {
    bed = await betsTestbed();
  });
  afterAll(async () => {
    await bed?.stop();
  });

  const forged = (
    client: BetsTestbed['alice']['client'],
    path: string,
    contentType: string,
    headers: Record<string, string> = evil,
  ) =>
    fetch(`${bed.app.url}${path}`, {
      method: 'POST',
      headers: { cookie: client.cookie!, 'content-type': contentType, ...headers },
      body: contentType === 'text/plain' ? 'x' : 'a=1',
    });

  it('refuses accept and decline of a bet, for every content type, and changes nothing', async () => {
    const { alice, bob } = bed;
    const bet = await proposeTo(alice, bob);
    for (const [action, type] of [
      ['accept', 'text/plain'],
      ['decline', 'application/x-www-form-urlencoded'],
      ['accept', 'multipart/form-data; boundary=x'],
    ] as const) {
      const response = await forged(bob.client, `/api/bets/${bet.id}/${action}`, type);
      expect(response.status, action).toBe(403);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(await response.json()).toMatchObject({ code: 'forbidden' });
    }
    // Origin alone (an older browser) and Sec-Fetch-Site alone are each enough to refuse, and so
    // is a Referer from another site where a browser sends neither.
    for (const headers of [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { referer: 'https://evil.example/page' },
    ] as Record<string, string>[])
      expect(
        (await forged(bob.client, `/api/bets/${bet.id}/accept`, 'text/plain', headers)).status,
      ).toBe(403);
    sync(alice, bob);
    expect((await bob.client.get<{ status: string }>(`/api/bets/${bet.id}`)).body.status).toBe(
      'pending',
    );
    // The same call from the site itself goes through.
    const own = await bob.client.post(`/api/bets/${bet.id}/accept`, undefined, {
      origin: bed.app.url,
      'sec-fetch-site': 'same-origin',
    });
    expect(own.status, own.text).toBe(200);
  });

  it('refuses accepting a friend request and an invitation', async () => {
    const carol = await person(bed.app, 'Carol');
    const dan = await person(bed.app, 'Dan');
    const request = await carol.client.post<{ id: string }>('/api/friend-requests', {
      receiverId: dan.user.id,
    });
    sync(carol, dan);
    const friendAccept = `/api/friend-requests/${request.body.id}/accept`;
    expect((await forged(dan.client, friendAccept, 'text/plain')).status).toBe(403);

    const invite = await carol.client.post<CreateInviteResponse>('/api/invites', {
      inviteeEmail: 'newcomer@example.com',
    });
    expect(invite.status, invite.text).toBe(201);
    const inviteAccept = `/api/invites/${invite.body.code}/accept`;
    expect(
      (await forged(dan.client, inviteAccept, 'application/x-www-form-urlencoded')).status,
    ).toBe(403);

    // Still open: each goes through from the site's own page.
    const sameOrigin = { 'sec-fetch-site': 'same-origin' };
    expect((await dan.client.post(friendAccept, undefined, sameOrigin)).status).toBe(200);
    expect((await dan.client.post(inviteAccept, undefined, sameOrigin)).status).toBe(200);
  });

  it('lets callers that are not browsers through (no Origin, no Sec-Fetch-Site)', async () => {
    const erin = await person(bed.app, 'Erin');
    const response = await erin.client.put('/api/user', { firstName: 'Erin', lastName: 'Q' });
    expect(response.status).toBe(200);
  });
});
