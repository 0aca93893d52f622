import type { Response } from 'express';
import type { SessionStore } from '@wagers/platform/auth/sessions';
import { emailReservationAggregate } from '@wagers/domain/users/email-reservation';
import { userAggregate } from '@wagers/domain/users/user';
import { handle } from '@wagers/platform/aggregate';
import type { CommandContext } from '@wagers/platform/decider';
import type { EventStore } from '@wagers/platform/event-store/port';

/**
 * Signs a person in by a verified email: one append reserves the address for a new account (a
 * no-op for a known one), and a process manager registers the account. The session starts at the
 * reservation and moves on to the registration, whichever side gets there first: the process
 * manager advances the sessions it finds, and this function advances its own if the account is
 * already registered when it looks, after the session exists.
 */
export async function signInByEmail(
  deps: { store: EventStore; sessions: SessionStore },
  email: string,
  context: CommandContext,
  res: Response,
): Promise<{ userId: string; newAccount: boolean }> {
  const proposedId = context.newId();
  const reserved = await handle(
    deps.store,
    emailReservationAggregate,
    email,
    { type: 'ReserveEmail', data: { userId: proposedId, email } },
    { ...context, actorId: proposedId },
  );
  const userId = reserved.state.userId;
  if (!userId) throw new Error('Email reservation holds no user');
  const session = await deps.sessions.create(userId, reserved.position, res, context.now);
  const last = (await deps.store.readStream(userAggregate.stream(userId))).at(-1);
  if (last) await deps.sessions.advance(session, last.position);
  return { userId, newAccount: reserved.events.length > 0 };
}
