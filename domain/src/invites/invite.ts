import {
  inviteEventSchemas,
  type InviteChannel,
  type InviteEvent,
} from '@wagers/contracts/events/invite';
import { schemaReader, type Decider } from '@wagers/platform/decider';
import { conflict, forbidden, notFound } from '@wagers/platform/errors';
import { isOwnEmail, isOwnPhone, phoneOptedOut, selfInvite } from './refusals.ts';
import { inviteStream } from '@wagers/contracts/events/invite';
import { defineAggregate } from '@wagers/platform/aggregate';

export type InviteState =
  | { status: 'none' }
  | {
      status: 'pending' | 'accepted';
      code: string;
      inviterId: string;
      inviteeEmail: string | null;
      inviteePhone: string | null;
      betId: string | null;
      /** Set when the invite came from an Idempotency-Key request: a retry must ask the same. */
      requestHash: string | null;
      /** Only its signed link opens it (every invite sent since links were signed). */
      signedLink: boolean;
      acceptedBy: string | null;
      /** The highest bet resend sequence this invite has answered. */
      resends: number;
      /** Outcome per delivery (the id of the InviteSent / InviteResent event delivered). */
      deliveries: Record<string, 'delivered' | 'failed'>;
    };

export type InviteCommand =
  | {
      type: 'SendInvite';
      data: {
        code: string;
        inviterId: string;
        inviterName: string;
        inviterEmail: string;
        /** The inviter's own mobile number from their profile, if any. */
        inviterPhone: string | null;
        /** Already normalised by parseInvitee: exactly one of the two is set. */
        inviteeEmail: string | null;
        inviteePhone: string | null;
        /** The phone's opt-out stream says STOP. */
        phoneOptedOut: boolean;
        betId: string | null;
        message: string | null;
        at: string;
        /** Hash of an Idempotency-Key request's content; null without a key. */
        requestHash: string | null;
        /** Only its signed link will open it: false only for a bet's invite attached before. */
        signedLink: boolean;
      };
    }
  | {
      type: 'ResendInvite';
      /** `sequence`: which of the bet's resends this is; a repeat of one already done is a no-op. */
      data: { actorId: string | null; phoneOptedOut: boolean; sequence?: number };
    }
  | {
      type: 'AcceptInvite';
      /**
       * `inviterDeleted`: the inviter's own stream says the account was deleted. `signedLink`: the
       * code came with its link's valid signature, not alone as the event log shows it.
       */
      data: { actorId: string; inviterDeleted: boolean; signedLink: boolean };
    }
  | {
      /** An operator's: only a signed link opens the invite from now on, and none is sent. */
      type: 'SealInvite';
      data: { actorId: null };
    }
  | { type: 'RecordDelivery'; data: { deliveryId: string; channel: InviteChannel } }
  | {
      type: 'RecordDeliveryFailure';
      data: { deliveryId: string; channel: InviteChannel; reason: string };
    };

export function evolve(state: InviteState, event: InviteEvent): InviteState {
  switch (event.type) {
    case 'InviteSent':
      return {
        status: 'pending',
        code: event.data.code,
        inviterId: event.data.inviterId,
        inviteeEmail: event.data.inviteeEmail,
        inviteePhone: event.data.inviteePhone,
        betId: event.data.betId,
        requestHash: event.data.requestHash ?? null,
        signedLink: event.data.signedLink === true,
        acceptedBy: null,
        resends: 0,
        deliveries: {},
      };
    case 'InviteResent':
      if (state.status === 'none') return state;
      return {
        ...state,
        resends: Math.max(state.resends, event.data.sequence ?? 0),
        signedLink: state.signedLink || event.data.signedLink === true,
      };
    case 'InviteSealed':
      if (state.status === 'none') return state;
      return { ...state, signedLink: true };
    case 'InviteAccepted':
      if (state.status === 'none') return state;
      return { ...state, status: 'accepted', acceptedBy: event.data.acceptedBy };
    case 'InviteDelivered':
      if (state.status === 'none') return state;
      return {
        ...state,
        deliveries: { ...state.deliveries, [event.data.deliveryId]: 'delivered' },
      };
    case 'InviteDeliveryFailed':
      if (state.status === 'none') return state;
      return { ...state, deliveries: { ...state.deliveries, [event.data.deliveryId]: 'failed' } };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

export function decide(command: InviteCommand, state: InviteState): InviteEvent[] {
  switch (command.type) {
    case 'SendInvite': {
      const data = command.data;
      if (state.status !== 'none') {
        // A bet's invite is sent by a process manager that may run again after a crash.
        if (data.betId !== null && state.betId === data.betId) return [];
        // The code of an Idempotency-Key request is kept for its key: the same request again
        // changes nothing.
        if (data.requestHash !== null && state.inviterId === data.inviterId) {
          if (state.requestHash === data.requestHash) return [];
          throw conflict(
            'This Idempotency-Key was already used for a different invite. Use a new key for a new invite.',
          );
        }
        throw conflict('This invite code is already taken');
      }
      if (isOwnEmail(data.inviteeEmail, data.inviterEmail)) throw selfInvite();
      if (isOwnPhone(data.inviteePhone, data.inviterPhone)) throw selfInvite('inviteePhone');
      if (data.inviteePhone && data.phoneOptedOut) throw phoneOptedOut();
      return [
        {
          type: 'InviteSent',
          data: {
            code: data.code,
            inviterId: data.inviterId,
            inviterName: data.inviterName,
            inviteeEmail: data.inviteeEmail,
            inviteePhone: data.inviteePhone,
            smsConsent: data.inviteePhone ? { givenBy: data.inviterId, givenAt: data.at } : null,
            betId: data.betId,
            message: data.message,
            ...(data.requestHash !== null ? { requestHash: data.requestHash } : {}),
            ...(data.signedLink ? { signedLink: true as const } : {}),
          },
        },
      ];
    }
    case 'ResendInvite':
      if (state.status === 'none') throw notFound('Invite not found');
      if (command.data.actorId !== null && command.data.actorId !== state.inviterId) {
        throw forbidden('Only the person who sent this invite can resend it');
      }
      if (state.status === 'accepted') throw conflict('This invite has already been accepted');
      if (command.data.sequence !== undefined && state.resends >= command.data.sequence) return [];
      if (state.inviteePhone && command.data.phoneOptedOut) throw phoneOptedOut();
      return [
        {
          type: 'InviteResent',
          data: {
            code: state.code,
            ...(command.data.sequence !== undefined ? { sequence: command.data.sequence } : {}),
            // Every resend carries a signed link: one sent before links were signed is closed to
            // its code alone from now on, the newcomer getting the new link.
            signedLink: true,
          },
        },
      ];
    case 'SealInvite':
      if (state.status === 'none') throw notFound('Invite not found');
      if (state.status === 'accepted') throw conflict('This invite has already been accepted');
      if (state.signedLink) return [];
      return [{ type: 'InviteSealed', data: { code: state.code } }];
    case 'AcceptInvite':
      // The code alone, as the event log shows it, does not open an invite sent with a signed
      // link: to whoever holds only that, the invite is not there.
      if (state.status === 'none' || (state.signedLink && !command.data.signedLink))
        throw notFound('Invite not found');
      if (command.data.actorId === state.inviterId)
        throw forbidden('You cannot accept your own invite');
      if (state.status === 'accepted') {
        // The same person again (a retry whose answer was lost, a second tab) changes nothing.
        if (state.acceptedBy === command.data.actorId) return [];
        throw conflict('This invite has already been accepted');
      }
      // Accepting makes the two friends: nobody can befriend an account that is gone.
      if (command.data.inviterDeleted)
        throw conflict('The person who sent this invite has deleted their account');
      return [
        {
          type: 'InviteAccepted',
          data: {
            code: state.code,
            inviterId: state.inviterId,
            acceptedBy: command.data.actorId,
            betId: state.betId,
          },
        },
      ];
    case 'RecordDelivery':
      if (state.status === 'none') throw notFound('Invite not found');
      if (state.deliveries[command.data.deliveryId] === 'delivered') return [];
      return [{ type: 'InviteDelivered', data: { code: state.code, ...command.data } }];
    case 'RecordDeliveryFailure':
      if (state.status === 'none') throw notFound('Invite not found');
      if (state.deliveries[command.data.deliveryId]) return [];
      return [{ type: 'InviteDeliveryFailed', data: { code: state.code, ...command.data } }];
    default: {
      const unknown: never = command;
      return unknown;
    }
  }
}

export const inviteDecider: Decider<InviteState, InviteCommand, InviteEvent> = {
  initialState: () => ({ status: 'none' }),
  decide,
  evolve,
};

export const readInviteEvent = schemaReader<InviteEvent>(inviteEventSchemas);

/** invite-{code}. */
export const inviteAggregate = defineAggregate({
  stream: inviteStream,
  decider: inviteDecider,
  read: readInviteEvent,
});
