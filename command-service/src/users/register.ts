import type { Response } from 'express';
import { emailReservationAggregate } from '@wagers/domain/users/email-reservation';
import { userAggregate } from '@wagers/domain/users/user';
import { handle, load, loadRead } from '@wagers/platform/aggregate';
import type { CommandContext } from '@wagers/platform/decider';
import { DomainError, unavailable } from '@wagers/platform/errors';
import type { EventStore } from '@wagers/platform/event-store/port';
import type { CommandServiceDeps } from '../deps.ts';

/**
 * Signs a person in by a verified email: one append reserves the address for a new account (a
 * no-op for a known one), and a process manager registers the account. The session starts at the
 * reservation and moves on to the registration, whichever side gets there first: the process
 * manager advances the sessions it finds, and this function advances its own once it sees the
 * account registered, after the session exists.
 *
 * A new account's sign-in answers once the account is registered (or after as long as a read
 * waits for its own write, READ_YOUR_WRITES_TIMEOUT_MS): the person's first call after it, a read of
 * their own stream or a command on it, finds the account and not "No such user".
 *
 * An address whose account was deleted stays that account's until the erasure releases it
 * (pm-account-erasure): until then the sign-in is refused, 503 with Retry-After, and no session
 * is made, so nobody acts as the deleted account. A deletion that lands while the session is made
 * is seen by the look after it, which ends the session again; its cookie is sent only after that
 * look, so a refused sign-in hands the browser no session.
 *
 * `replacing` is the session the browser has now (its token), if any: it ends only once the new
 * session stands, so a refused sign-in leaves the browser signed in as it was.
 */
export async function signInByEmail(
  deps: Pick<CommandServiceDeps, 'store' | 'sessions' | 'config' | 'watcher'>,
  email: string,
  context: CommandContext,
  res: Response,
  replacing: string | null,
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
  const newAccount = reserved.events.length > 0;
  const account = () => loadRead(deps.store, userAggregate, userId);
  // A new account's id was made just now: no deletion can hold it yet.
  if (!newAccount && (await account()).state.status === 'deleted') throw addressBeingReleased();
  const session = await deps.sessions.create(userId, reserved.position, context.now);
  // The registration manager's checkpoint passing the reservation says the account is written
  // (the watcher's word, as reads wait on), so the stream is read once, after it.
  if (reserved.position) {
    await deps.watcher.waitFor(
      ['pm-user-registration'],
      reserved.position,
      deps.config.READ_YOUR_WRITES_TIMEOUT_MS,
    );
  }
  const { state, read } = await account();
  if (state.status === 'deleted') {
    await deps.sessions.endUser(userId);
    throw addressBeingReleased();
  }
  const last = read.at(-1);
  if (last) await deps.sessions.advance(session, last.position);
  await deps.sessions.end(replacing);
  deps.sessions.sendCookie(session, res);
  return { userId, newAccount };
}

/**
 * The deleted account that still holds the address, until the erasure releases it (a sign-in with
 * the address is refused meanwhile); null when the address is free or a live account's. Read from
 * the log, so a deletion it reports was appended before it looked.
 */
export async function deletedAccountHolding(
  store: EventStore,
  email: string,
): Promise<string | null> {
  const { userId } = await load(store, emailReservationAggregate, email);
  if (!userId) return null;
  return (await load(store, userAggregate, userId)).status === 'deleted' ? userId : null;
}

const RELEASE_SECONDS = 30;

const addressBeingReleased = () =>
  unavailable(
    'This email address belonged to an account that was just deleted. Try signing in again in a minute.',
    RELEASE_SECONDS,
  );

/**
 * Answers the refusal `signInByEmail` throws while the address is still a deleted account's with
 * the sign-in's own problem page (503, Retry-After), and says whether it did: any other error is
 * the caller's to throw.
 */
export function answeredPausedSignIn(
  error: unknown,
  res: Response,
  page: (message: string) => string,
): boolean {
  if (!(error instanceof DomainError) || error.code !== 'unavailable') return false;
  res
    .status(503)
    .setHeader('retry-after', String(error.retryAfterSeconds ?? RELEASE_SECONDS))
    .type('html')
    .send(page(error.message));
  return true;
}
