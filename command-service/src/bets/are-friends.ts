import { friendshipStream } from '@wagers/contracts/events/friendship';
import type { EventStore } from '@wagers/platform/event-store/port';
import { friendshipDecider, readFriendshipEvent } from '../friends/friendship.ts';
import { foldStream } from '../users/load-user.ts';

/** Read from the pair's own stream, not a read model: a command's rule must not depend on lag. */
export async function areFriends(
  store: EventStore,
  userA: string,
  userB: string,
): Promise<boolean> {
  if (userA === userB) return false;
  const state = await foldStream(
    store,
    friendshipStream(userA, userB),
    friendshipDecider,
    readFriendshipEvent,
  );
  return state.friends;
}
