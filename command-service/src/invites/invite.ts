import {
  inviteEventSchemas,
  type InviteChannel,
  type InviteEvent,
} from '@wagers/contracts/events/invite';
import { schemaReader, type Decider } from '@wagers/platform/decider';
import { conflict, DomainError, forbidden, notFound } from '@wagers/platform/errors';

export type InviteState =
  | { status: 'none' }
  | {
      status: 'pending' | 'accepted';
      code: string;
      inviterId: string;
      inviteeEmail: string | null;
      inviteePhone: string | null;
      betId: string | null;
      acceptedBy: string | null;
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
        /** Already normalised by parseInvitee: exactly one of the two is set. */
        inviteeEmail: string | null;
        inviteePhone: string | null;
        /** The phone's opt-out stream says STOP. */
        phoneOptedOut: boolean;
        betId: string | null;
        message: string | null;
        at: string;
      };
    }
  | { type: 'ResendInvite'; data: { actorId: string | null; phoneOptedOut: boolean } }
  | { type: 'AcceptInvite'; data: { actorId: string } }
  | { type: 'RecordDelivery'; data: { deliveryId: string; channel: InviteChannel } }
  | {
      type: 'RecordDeliveryFailure';
      data: { deliveryId: string; channel: InviteChannel; reason: string };
    };

export const OPTED_OUT_MESSAGE =
  'This number has opted out of SMS from Wagers (it replied STOP). Invite them by email instead.';

const optedOut = () =>
  new DomainError('validation_failed', OPTED_OUT_MESSAGE, [
    { field: 'inviteePhone', message: OPTED_OUT_MESSAGE },
  ]);

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
        acceptedBy: null,
        deliveries: {},
      };
    case 'InviteResent':
      return state;
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
      if (state.status !== 'none') throw conflict('This invite code is already taken');
      if (data.inviteeEmail && data.inviteeEmail === data.inviterEmail.toLowerCase()) {
        const message = 'You cannot invite yourself';
        throw new DomainError('validation_failed', message, [{ field: 'inviteeEmail', message }]);
      }
      if (data.inviteePhone && data.phoneOptedOut) throw optedOut();
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
      if (state.inviteePhone && command.data.phoneOptedOut) throw optedOut();
      return [{ type: 'InviteResent', data: { code: state.code } }];
    case 'AcceptInvite':
      if (state.status === 'none') throw notFound('Invite not found');
      if (command.data.actorId === state.inviterId)
        throw forbidden('You cannot accept your own invite');
      if (state.status === 'accepted') throw conflict('This invite has already been accepted');
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
