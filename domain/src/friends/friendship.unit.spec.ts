import { describe, expect, it } from 'vitest';
import type { FriendshipEvent } from '@wagers/contracts/events/friendship';
import { deciderSpec } from '@wagers/test-support/decider-spec';
import { friendshipDecider } from './friendship.ts';
import { formatRequestId, parseRequestId } from './request-id.ts';

const spec = deciderSpec(friendshipDecider);
const ann = '11111111-1111-4111-8111-111111111111';
const bob = '22222222-2222-4222-8222-222222222222';
const cy = '33333333-3333-4333-8333-333333333333';
const firstId = formatRequestId(ann, bob, 1);
const request = { requestId: firstId, senderId: ann, receiverId: bob };

const sent: FriendshipEvent = { type: 'FriendRequestSent', data: request };
const started: FriendshipEvent = {
  type: 'FriendshipStarted',
  data: { userIds: [ann, bob], requestId: firstId, inviteCode: null },
};
const declined: FriendshipEvent = { type: 'FriendRequestDeclined', data: request };

describe('friendship decider', () => {
  describe('strangers', () => {
    it('sends a request', () =>
      spec
        .given([])
        .when({ type: 'SendFriendRequest', data: { senderId: ann, receiverId: bob } })
        .then([sent]));

    it('refuses a request to yourself', () =>
      spec
        .given([])
        .when({ type: 'SendFriendRequest', data: { senderId: ann, receiverId: ann } })
        .thenFails('validation_failed', /yourself/));

    it('has no request to accept or decline', () => {
      spec
        .given([])
        .when({
          type: 'AcceptFriendRequest',
          data: { requestId: firstId, actorId: bob, senderDeleted: false },
        })
        .thenFails('not_found');
      spec
        .given([])
        .when({ type: 'DeclineFriendRequest', data: { requestId: firstId, actorId: bob } })
        .thenFails('not_found');
    });

    it('become friends through an invite', () =>
      spec
        .given([])
        .when({
          type: 'BefriendThroughInvite',
          data: { inviterId: bob, inviteeId: ann, inviteCode: 'c1' },
        })
        .then([
          {
            type: 'FriendshipStarted',
            data: { userIds: [ann, bob], requestId: null, inviteCode: 'c1' },
          },
        ]));
  });

  describe('a request pending', () => {
    it('refuses a second request from the same sender', () =>
      spec
        .given([sent])
        .when({ type: 'SendFriendRequest', data: { senderId: ann, receiverId: bob } })
        .thenFails('conflict', /already sent/));

    it('makes them friends when the receiver asks back', () =>
      spec
        .given([sent])
        .when({ type: 'SendFriendRequest', data: { senderId: bob, receiverId: ann } })
        .then([{ type: 'FriendRequestAccepted', data: request }, started]));

    it('is accepted by its receiver', () =>
      spec
        .given([sent])
        .when({
          type: 'AcceptFriendRequest',
          data: { requestId: firstId, actorId: bob, senderDeleted: false },
        })
        .then([{ type: 'FriendRequestAccepted', data: request }, started]));

    it('is not accepted once its sender deleted their account', () =>
      spec
        .given([sent])
        .when({
          type: 'AcceptFriendRequest',
          data: { requestId: firstId, actorId: bob, senderDeleted: true },
        })
        .thenFails('conflict', /deleted their account/));

    it('is declined by its receiver', () =>
      spec
        .given([sent])
        .when({ type: 'DeclineFriendRequest', data: { requestId: firstId, actorId: bob } })
        .then([declined]));

    it('is answered by nobody else: not its sender, not a stranger', () => {
      for (const actorId of [ann, cy]) {
        spec
          .given([sent])
          .when({
            type: 'AcceptFriendRequest',
            data: { requestId: firstId, actorId, senderDeleted: false },
          })
          .thenFails('forbidden');
        spec
          .given([sent])
          .when({ type: 'DeclineFriendRequest', data: { requestId: firstId, actorId } })
          .thenFails('forbidden');
      }
    });

    it('does not answer to another id', () =>
      spec
        .given([sent])
        .when({
          type: 'AcceptFriendRequest',
          data: { requestId: formatRequestId(ann, bob, 7), actorId: bob, senderDeleted: false },
        })
        .thenFails('not_found'));

    it('is settled by an invite accepted meanwhile', () =>
      spec
        .given([
          sent,
          {
            type: 'FriendshipStarted',
            data: { userIds: [ann, bob], requestId: null, inviteCode: 'c1' },
          },
        ])
        .when({
          type: 'AcceptFriendRequest',
          data: { requestId: firstId, actorId: bob, senderDeleted: false },
        })
        .thenFails('not_found'));
  });

  describe('declined', () => {
    it('lets either ask again, with a new id', () =>
      spec
        .given([sent, declined])
        .when({ type: 'SendFriendRequest', data: { senderId: ann, receiverId: bob } })
        .then([
          {
            type: 'FriendRequestSent',
            data: { ...request, requestId: formatRequestId(ann, bob, 2) },
          },
        ]));

    it('cannot be accepted any more', () =>
      spec
        .given([sent, declined])
        .when({
          type: 'AcceptFriendRequest',
          data: { requestId: firstId, actorId: bob, senderDeleted: false },
        })
        .thenFails('not_found'));

    it('takes the same decline again by its receiver as done', () =>
      spec
        .given([sent, declined])
        .when({ type: 'DeclineFriendRequest', data: { requestId: firstId, actorId: bob } })
        .thenNothing());
  });

  describe('friends', () => {
    const friends = [sent, { type: 'FriendRequestAccepted', data: request } as const, started];

    it('refuses a request between friends, either way', () => {
      spec
        .given(friends)
        .when({ type: 'SendFriendRequest', data: { senderId: ann, receiverId: bob } })
        .thenFails('conflict');
      spec
        .given(friends)
        .when({ type: 'SendFriendRequest', data: { senderId: bob, receiverId: ann } })
        .thenFails('conflict');
    });

    it('takes the same accept again by its receiver (a lost answer, a second tab) as done', () => {
      const acceptAgain = {
        type: 'AcceptFriendRequest',
        data: { requestId: firstId, actorId: bob, senderDeleted: false },
      } as const;
      spec.given(friends).when(acceptAgain).thenNothing();
      // Even once the sender has deleted their account: they were friends by then.
      spec
        .given([sent, { type: 'FriendRequestAccepted', data: request }, started])
        .when({ ...acceptAgain, data: { ...acceptAgain.data, senderDeleted: true } })
        .thenNothing();
    });

    it('refuses an accept by anyone else, and a decline, as nothing is pending', () => {
      spec
        .given(friends)
        .when({
          type: 'AcceptFriendRequest',
          data: { requestId: firstId, actorId: ann, senderDeleted: false },
        })
        .thenFails('not_found');
      spec
        .given(friends)
        .when({ type: 'DeclineFriendRequest', data: { requestId: firstId, actorId: bob } })
        .thenFails('not_found');
    });

    it('ignores an invite between friends', () =>
      spec
        .given(friends)
        .when({
          type: 'BefriendThroughInvite',
          data: { inviterId: ann, inviteeId: bob, inviteCode: 'c2' },
        })
        .thenNothing());
  });
});

describe('friend request ids', () => {
  it('name the pair', () => {
    expect(parseRequestId(firstId)).toEqual({ senderId: ann, receiverId: bob });
    expect(parseRequestId(`${ann}_${bob}_0`)).toBeNull();
    expect(parseRequestId('nonsense')).toBeNull();
    expect(parseRequestId(`${ann}_${bob}_1x`)).toBeNull();
  });
});
