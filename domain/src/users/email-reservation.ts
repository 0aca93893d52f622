import {
  emailReservationEventSchemas,
  type EmailReservationEvent,
} from '@wagers/contracts/events/user';
import { schemaReader, type Decider } from '@wagers/platform/decider';
import { defineAggregate } from '@wagers/platform/aggregate';
import { emailDigest } from '@wagers/platform/event-store/sealed-fields';

/** The stream of the address with this digest (SHA-256 of the lowercased address). */
export const reservationStreamOfDigest = (digest: string) => `useremail-${digest}`;

/** One stream per email address (hashed, so stream names do not list addresses). */
export const emailReservationStream = (email: string) =>
  reservationStreamOfDigest(emailDigest(email));

export type ReservationState = { userId: string | null };
export type ReservationCommand =
  | { type: 'ReserveEmail'; data: { userId: string; email: string } }
  /** The account holding the address was deleted. */
  | { type: 'ReleaseEmail'; data: { userId: string } };

/**
 * The first user to reserve an address keeps it; a later reservation changes nothing. Once the
 * holder's account is deleted the address is free, and the next reservation is a new account.
 */
export const emailReservationDecider: Decider<
  ReservationState,
  ReservationCommand,
  EmailReservationEvent
> = {
  initialState: () => ({ userId: null }),
  decide: (command, state) => {
    if (command.type === 'ReleaseEmail') {
      return state.userId === command.data.userId
        ? [{ type: 'EmailReleased', data: { userId: command.data.userId } }]
        : [];
    }
    return state.userId
      ? []
      : [
          {
            type: 'EmailReserved',
            data: { userId: command.data.userId, email: command.data.email },
          },
        ];
  },
  evolve: (_state, event) =>
    event.type === 'EmailReserved' ? { userId: event.data.userId } : { userId: null },
};

export const readReservationEvent = schemaReader<EmailReservationEvent>(
  emailReservationEventSchemas,
);

/** One stream per lowercased email: the first registration to append wins it. */
export const emailReservationAggregate = defineAggregate({
  stream: emailReservationStream,
  decider: emailReservationDecider,
  read: readReservationEvent,
});

/** The same streams, named by the address's digest: for the erasure, which has no address. */
export const emailReservationByDigest = defineAggregate({
  stream: reservationStreamOfDigest,
  decider: emailReservationDecider,
  read: readReservationEvent,
});
