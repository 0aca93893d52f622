import { userEventSchemas, type UserEvent } from '@wagers/contracts/events/user';
import { schemaReader, type Decider } from '@wagers/platform/decider';
import { conflict } from '@wagers/platform/errors';

export type UserState =
  | { status: 'unregistered' }
  | { status: 'registered'; userId: string; email: string; firstName: string | null; lastName: string | null };

export type UserCommand = {
  type: 'RegisterUser';
  data: { userId: string; email: string };
};

export function evolve(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return {
        status: 'registered',
        userId: event.data.userId,
        email: event.data.email,
        firstName: event.data.firstName,
        lastName: event.data.lastName,
      };
    default: {
      const unknown: never = event.type;
      return unknown;
    }
  }
}

export function decide(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'RegisterUser':
      if (state.status === 'registered') {
        if (state.email === command.data.email) return [];
        throw conflict('This account is already registered');
      }
      return [
        {
          type: 'UserRegistered',
          data: { userId: command.data.userId, email: command.data.email, firstName: null, lastName: null },
        },
      ];
    default: {
      const unknown: never = command.type;
      return unknown;
    }
  }
}

export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  initialState: () => ({ status: 'unregistered' }),
  decide,
  evolve,
};

export const readUserEvent = schemaReader<UserEvent>(userEventSchemas);
