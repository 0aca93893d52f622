import { userStream } from '@wagers/contracts/events/user';
import { maxPosition, type GlobalPosition } from '@wagers/contracts/position';
import { handleCommand, type CommandContext } from '@wagers/platform/decider';
import type { EventStore } from '@wagers/platform/event-store/port';
import {
  emailReservationDecider,
  emailReservationStream,
  readReservationEvent,
} from './email-reservation.ts';
import { readUserEvent, userDecider } from './user.ts';

/**
 * Finds the account that owns an email, registering one on first sign-in. The reservation comes
 * first; if the process dies before the user stream is written, the next sign-in finishes it.
 */
export async function findOrRegisterUser(
  store: EventStore,
  email: string,
  context: CommandContext,
): Promise<{ userId: string; position: GlobalPosition | null; registered: boolean }> {
  const reservation = await handleCommand(
    store,
    emailReservationStream(email),
    emailReservationDecider,
    readReservationEvent,
    { type: 'ReserveEmail', data: { userId: context.newId(), email } },
    context,
  );
  const userId = reservation.state.userId;
  if (!userId) throw new Error('Email reservation holds no user');
  const registration = await handleCommand(
    store,
    userStream(userId),
    userDecider,
    readUserEvent,
    { type: 'RegisterUser', data: { userId, email } },
    { ...context, actorId: userId },
  );
  return {
    userId,
    position: maxPosition(reservation.position, registration.position),
    registered: registration.events.length > 0,
  };
}
