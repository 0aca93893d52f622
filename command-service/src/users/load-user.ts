import type { User } from '@wagers/contracts/api/user';
import { userAggregate, type UserState } from '@wagers/domain/users/user';
import { load } from '@wagers/platform/aggregate';
import type { EventStore } from '@wagers/platform/event-store/port';

export function loadUser(store: EventStore, userId: string): Promise<UserState> {
  return load(store, userAggregate, userId);
}

/**
 * The user as API responses show one, straight from the stream: for a command's answer, which
 * must not wait for the read model.
 */
export async function loadUserView(store: EventStore, userId: string): Promise<User | null> {
  const recorded = await store.readStream(userAggregate.stream(userId));
  const { decider, read } = userAggregate;
  let state = decider.initialState();
  for (const event of recorded) {
    const domainEvent = read(event);
    if (domainEvent) state = decider.evolve(state, domainEvent);
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
