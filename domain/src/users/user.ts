import { userEventSchemas, type UserEvent } from '@wagers/contracts/events/user';
import { schemaReader, type Decider } from '@wagers/platform/decider';
import { conflict, invalid, notFound } from '@wagers/platform/errors';
import { emailDigest } from '@wagers/platform/event-store/sealed-fields';
import { userStream } from '@wagers/contracts/events/user';
import { defineAggregate } from '@wagers/platform/aggregate';

export type UserState =
  | { status: 'unregistered' }
  | {
      status: 'registered';
      userId: string;
      /** Null only when read after the account's key was destroyed. */
      email: string | null;
      firstName: string | null;
      lastName: string | null;
      avatarUrl: string | null;
      /** E.164; texts go only while `smsConsent` (given at `consentedAt`) holds. */
      phone: string | null;
      smsConsent: boolean;
      consentedAt: string | null;
    }
  /** The person deleted the account: nothing more happens to it. */
  | { status: 'deleted'; userId: string };

export type UserCommand =
  | { type: 'RegisterUser'; data: { userId: string; email: string } }
  /** Names arrive trimmed and checked by the contracts schema. */
  | { type: 'UpdateProfile'; data: { userId: string; firstName: string; lastName: string } }
  /** `avatarUrl` was checked by the avatar store as issued to this user before the command is built. */
  | { type: 'ChangeAvatar'; data: { userId: string; avatarUrl: string } }
  /** `phone` is E.164 (contracts schema) or null; `at` (ISO) dates a consent given now. */
  | {
      type: 'SetPhone';
      data: { userId: string; phone: string | null; smsConsent: boolean; at: string };
    }
  /** `confirmEmail`: the address the person typed to confirm; it must be the account's. */
  | { type: 'DeleteAccount'; data: { userId: string; confirmEmail: string } };

export function evolve(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return {
        status: 'registered',
        userId: event.data.userId,
        email: event.data.email,
        firstName: event.data.firstName,
        lastName: event.data.lastName,
        avatarUrl: null,
        phone: null,
        smsConsent: false,
        consentedAt: null,
      };
    case 'ProfileUpdated':
      if (state.status !== 'registered') return state;
      return { ...state, firstName: event.data.firstName, lastName: event.data.lastName };
    case 'AvatarChanged':
      if (state.status !== 'registered') return state;
      return { ...state, avatarUrl: event.data.avatarUrl };
    case 'PhoneChanged': {
      if (state.status !== 'registered') return state;
      const { phone, smsConsent, consentedAt } = event.data;
      return { ...state, phone, smsConsent, consentedAt };
    }
    case 'AccountDeleted':
      return { status: 'deleted', userId: event.data.userId };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

export function decide(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'RegisterUser':
      // A late registration of an account deleted since changes nothing.
      if (state.status === 'deleted') return [];
      if (state.status === 'registered') {
        if (state.email === command.data.email) return [];
        throw conflict('This account is already registered');
      }
      return [
        {
          type: 'UserRegistered',
          data: {
            userId: command.data.userId,
            email: command.data.email,
            firstName: null,
            lastName: null,
          },
        },
      ];
    case 'UpdateProfile': {
      if (state.status !== 'registered') throw notFound('No such user');
      const { firstName, lastName } = command.data;
      if (state.firstName === firstName && state.lastName === lastName) return [];
      return [{ type: 'ProfileUpdated', data: { userId: state.userId, firstName, lastName } }];
    }
    case 'ChangeAvatar':
      if (state.status !== 'registered') throw notFound('No such user');
      if (state.avatarUrl === command.data.avatarUrl) return [];
      return [
        {
          type: 'AvatarChanged',
          data: { userId: state.userId, avatarUrl: command.data.avatarUrl },
        },
      ];
    case 'SetPhone': {
      if (state.status !== 'registered') throw notFound('No such user');
      const { phone, at } = command.data;
      // No number, no consent: removing the number withdraws it, and a new number asks anew.
      const smsConsent = phone !== null && command.data.smsConsent;
      if (state.phone === phone && state.smsConsent === smsConsent) return [];
      const consentedAt = smsConsent ? at : null;
      return [
        { type: 'PhoneChanged', data: { userId: state.userId, phone, smsConsent, consentedAt } },
      ];
    }
    case 'DeleteAccount':
      return deleteAccount(command.data.confirmEmail, state);
    default: {
      const unknown: never = command;
      return unknown;
    }
  }
}

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Deleting needs the account's own address typed again; a deleted account is gone. */
function deleteAccount(confirmEmail: string, state: UserState): UserEvent[] {
  if (state.status !== 'registered' || state.email === null) throw notFound('No such user');
  if (!sameAddress(confirmEmail, state.email)) {
    throw invalid('confirmEmail', 'Type the email address of your account to confirm');
  }
  return [
    {
      type: 'AccountDeleted',
      data: {
        userId: state.userId,
        emailDigest: emailDigest(state.email),
        phones: state.phone ? [state.phone] : [],
      },
    },
  ];
}

export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  initialState: () => ({ status: 'unregistered' }),
  decide,
  evolve,
};

export const readUserEvent = schemaReader<UserEvent>(userEventSchemas);

/** user-{userId}. */
export const userAggregate = defineAggregate({
  stream: userStream,
  decider: userDecider,
  read: readUserEvent,
});
