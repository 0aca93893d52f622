import { emailReservationEventSchemas } from '@wagers/contracts/events/user';
import { userAggregate } from '@wagers/domain/users/user';
import { handle } from '@wagers/platform/aggregate';
import type { EventStore } from '@wagers/platform/event-store/port';
import type { ProcessManager } from './process-manager.ts';

/** The event types this manager reacts to. */
export const USER_REGISTRATION_TRIGGERS: ReadonlySet<string> = new Set(['EmailReserved']);

/** A reserved email becomes an account; registering one already registered is a no-op. */
export function userRegistration(store: EventStore): ProcessManager {
  return {
    name: 'pm-user-registration',
    reactsTo: USER_REGISTRATION_TRIGGERS,
    async react(event, context) {
      const { userId, email } = emailReservationEventSchemas.EmailReserved.parse(event.data);
      // The account was deleted since, and its address erased: there is nothing to register.
      if (email === null) return null;
      const registered = await handle(
        store,
        userAggregate,
        userId,
        { type: 'RegisterUser', data: { userId, email } },
        { ...context, actorId: userId },
      );
      return registered.position;
    },
  };
}
