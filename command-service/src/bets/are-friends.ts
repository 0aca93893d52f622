import { friendshipAggregate } from '@wagers/domain/friends/friendship';
import { load } from '@wagers/platform/aggregate';
import type { EventStore } from '@wagers/platform/event-store/port';

/** Read from the pair's own stream, not a read model: a command's rule must not depend on lag. */
export async function areFriends(store: EventStore, a: string, b: string): Promise<boolean> {
  if (a === b) return false;
  return (await load(store, friendshipAggregate, [a, b])).friends;
}
