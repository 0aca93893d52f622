import { friendshipEventSchemas, type FriendshipEvent } from '@wagers/contracts/events/friendship';
import { schemaReader, type Decider } from '@wagers/platform/decider';
import { conflict, forbidden, invalid, notFound } from '@wagers/platform/errors';
import { formatRequestId } from './request-id.ts';
import { friendshipStream } from '@wagers/contracts/events/friendship';
import { defineAggregate } from '@wagers/platform/aggregate';

/**
 * A pair of users: their friendship and at most one pending request between them. One stream per
 * pair makes "no second pending request" and "a request back makes you friends" one decision.
 */
export type FriendshipState = {
  friends: boolean;
  pending: { requestId: string; senderId: string; receiverId: string } | null;
  /** Requests ever sent in this pair; numbers the next request's id. */
  requestCount: number;
  /** The last request answered, and how: the same answer again by its receiver changes nothing. */
  answered: { requestId: string; receiverId: string; accepted: boolean } | null;
};

export type FriendshipCommand =
  | { type: 'SendFriendRequest'; data: { senderId: string; receiverId: string } }
  | {
      type: 'AcceptFriendRequest';
      /** `senderDeleted`: the sender's own stream says the account was deleted. */
      data: { requestId: string; actorId: string; senderDeleted: boolean };
    }
  | { type: 'DeclineFriendRequest'; data: { requestId: string; actorId: string } }
  | {
      type: 'BefriendThroughInvite';
      data: { inviterId: string; inviteeId: string; inviteCode: string };
    };

const sorted = (a: string, b: string): [string, string] => (a < b ? [a, b] : [b, a]);

export function evolve(state: FriendshipState, event: FriendshipEvent): FriendshipState {
  switch (event.type) {
    case 'FriendRequestSent':
      return { ...state, pending: event.data, requestCount: state.requestCount + 1 };
    case 'FriendRequestAccepted':
    case 'FriendRequestDeclined': {
      const { requestId, receiverId } = event.data;
      const accepted = event.type === 'FriendRequestAccepted';
      return { ...state, pending: null, answered: { requestId, receiverId, accepted } };
    }
    case 'FriendshipStarted':
      return { ...state, friends: true, pending: null };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

/** Whether the receiver gave this same answer to this request already (a retry, a second tab). */
function answeredAlready(
  state: FriendshipState,
  command: {
    type: 'AcceptFriendRequest' | 'DeclineFriendRequest';
    data: { requestId: string; actorId: string };
  },
): boolean {
  const { answered } = state;
  return (
    answered?.requestId === command.data.requestId &&
    answered.receiverId === command.data.actorId &&
    answered.accepted === (command.type === 'AcceptFriendRequest')
  );
}

function pendingRequest(state: FriendshipState, requestId: string, actorId: string) {
  const pending = state.pending;
  if (!pending || pending.requestId !== requestId) throw notFound('Friend request not found');
  if (pending.receiverId !== actorId)
    throw forbidden('Only the person who received this request can answer it');
  return pending;
}

export function decide(command: FriendshipCommand, state: FriendshipState): FriendshipEvent[] {
  switch (command.type) {
    case 'SendFriendRequest': {
      const { senderId, receiverId } = command.data;
      if (senderId === receiverId)
        throw invalid('receiverId', 'You cannot send a friend request to yourself');
      if (state.friends) throw conflict('You are already friends');
      const pending = state.pending;
      if (pending?.senderId === senderId)
        throw conflict('You already sent a friend request to this person');
      if (pending) {
        return [
          { type: 'FriendRequestAccepted', data: pending },
          {
            type: 'FriendshipStarted',
            data: {
              userIds: sorted(senderId, receiverId),
              requestId: pending.requestId,
              inviteCode: null,
            },
          },
        ];
      }
      const requestId = formatRequestId(senderId, receiverId, state.requestCount + 1);
      return [{ type: 'FriendRequestSent', data: { requestId, senderId, receiverId } }];
    }
    case 'AcceptFriendRequest': {
      if (answeredAlready(state, command)) return [];
      const pending = pendingRequest(state, command.data.requestId, command.data.actorId);
      // Nobody can befriend an account that is gone; the request may still be declined.
      if (command.data.senderDeleted) throw conflict('This person has deleted their account');
      return [
        { type: 'FriendRequestAccepted', data: pending },
        {
          type: 'FriendshipStarted',
          data: {
            userIds: sorted(pending.senderId, pending.receiverId),
            requestId: pending.requestId,
            inviteCode: null,
          },
        },
      ];
    }
    case 'DeclineFriendRequest': {
      if (answeredAlready(state, command)) return [];
      const pending = pendingRequest(state, command.data.requestId, command.data.actorId);
      return [{ type: 'FriendRequestDeclined', data: pending }];
    }
    case 'BefriendThroughInvite': {
      if (state.friends) return [];
      const { inviterId, inviteeId, inviteCode } = command.data;
      return [
        {
          type: 'FriendshipStarted',
          data: { userIds: sorted(inviterId, inviteeId), requestId: null, inviteCode },
        },
      ];
    }
    default: {
      const unknown: never = command;
      return unknown;
    }
  }
}

export const friendshipDecider: Decider<FriendshipState, FriendshipCommand, FriendshipEvent> = {
  initialState: () => ({ friends: false, pending: null, requestCount: 0, answered: null }),
  decide,
  evolve,
};

export const readFriendshipEvent = schemaReader<FriendshipEvent>(friendshipEventSchemas);

/** friendship-{a}-{b}, the pair's ids sorted: one stream whichever of the two acts. */
export const friendshipAggregate = defineAggregate({
  stream: ([a, b]: readonly [string, string]) => friendshipStream(a, b),
  decider: friendshipDecider,
  read: readFriendshipEvent,
});
