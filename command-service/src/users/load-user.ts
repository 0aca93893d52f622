import type { User } from '@wagers/contracts/api/user';
import { userStream } from '@wagers/contracts/events/user';
import type { DomainEvent } from '@wagers/contracts/events/envelope';
import type { Decider, EventReader } from '@wagers/platform/decider';
import type { EventStore } from '@wagers/platform/event-store/port';
import { readUserEvent, userDecider, type UserState } from './user.ts';

/** The current state of a stream, read-only: for facts a command needs from another aggregate. */
export async function foldStream<State, Event extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Pick<Decider<State, never, Event>, 'initialState' | 'evolve'>,
  readEvent: EventReader<Event>,
): Promise<State> {
  let state = decider.initialState();
  for (const recorded of await store.readStream(streamId)) {
    const event = readEvent(recorded);
    if (event) state = decider.evolve(state, event);
  }
  return state;
}

export function loadUser(store: EventStore, userId: string): Promise<UserState> {
  return foldStream(store, userStream(userId), userDecider, readUserEvent);
}

/**
 * The user as API responses show one, straight from the stream: for a command's answer, which
 * must not wait for the read model.
 */
export async function loadUserView(store: EventStore, userId: string): Promise<User | null> {
  const recorded = await store.readStream(userStream(userId));
  let state = userDecider.initialState();
  for (const event of recorded) {
    const domainEvent = readUserEvent(event);
    if (domainEvent) state = userDecider.evolve(state, domainEvent);
  }
  if (state.status !== 'registered' || !recorded[0]) return null;
  return {
    id: state.userId,
    firstName: state.firstName,
    lastName: state.lastName,
    email: state.email,
    profileImageUrl: state.avatarUrl,
    createdAt: recorded[0].metadata.occurredAt,
  };
}
