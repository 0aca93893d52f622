import { createHash } from 'node:crypto';
import { emailReservationEventSchemas, type EmailReserved } from '@wagers/contracts/events/user';
import { schemaReader, type Decider } from '@wagers/platform/decider';
import { defineAggregate } from '@wagers/platform/aggregate';

/** One stream per email address (hashed, so stream names do not list addresses). */
export const emailReservationStream = (email: string) =>
  `useremail-${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;

export type ReservationState = { userId: string | null };
export type ReserveEmail = { type: 'ReserveEmail'; data: { userId: string; email: string } };

/** The first user to reserve an address keeps it; a later reservation changes nothing. */
export const emailReservationDecider: Decider<ReservationState, ReserveEmail, EmailReserved> = {
  initialState: () => ({ userId: null }),
  decide: (command, state) =>
    state.userId
      ? []
      : [
          {
            type: 'EmailReserved',
            data: { userId: command.data.userId, email: command.data.email },
          },
        ],
  evolve: (_state, event) => ({ userId: event.data.userId }),
};

export const readReservationEvent = schemaReader<EmailReserved>(emailReservationEventSchemas);

/** One stream per lowercased email: the first registration to append wins it. */
export const emailReservationAggregate = defineAggregate({
  stream: emailReservationStream,
  decider: emailReservationDecider,
  read: readReservationEvent,
});
