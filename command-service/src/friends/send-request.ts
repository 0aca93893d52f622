import type { GlobalPosition } from '@wagers/contracts/position';
import { handle } from '@wagers/platform/aggregate';
import type { CommandContext } from '@wagers/platform/decider';
import { notFound } from '@wagers/platform/errors';
import type { EventStore } from '@wagers/platform/event-store/port';
import { loadUser } from '../users/load-user.ts';
import { friendshipAggregate } from '@wagers/domain/friends/friendship';

export type SendRequestOutcome =
  | { status: 'pending'; requestId: string; position: GlobalPosition | null }
  /** The receiver had already asked the sender: they are friends now. */
  | { status: 'friends'; requestId: null; position: GlobalPosition | null };

export async function sendFriendRequest(
  store: EventStore,
  input: { senderId: string; receiverId: string },
  context: CommandContext,
  /** Counted once the request has passed every rule, before it is appended (its limits). */
  beforeAppend?: () => Promise<void>,
): Promise<SendRequestOutcome> {
  if (input.receiverId !== input.senderId) {
    const receiver = await loadUser(store, input.receiverId);
    if (receiver.status !== 'registered') throw notFound('No such user');
  }
  const result = await handle(
    store,
    friendshipAggregate,
    [input.senderId, input.receiverId],
    { type: 'SendFriendRequest', data: input },
    context,
    { beforeAppend },
  );
  const sent = result.events.find((event) => event.type === 'FriendRequestSent');
  return sent
    ? { status: 'pending', requestId: sent.data.requestId, position: result.position }
    : { status: 'friends', requestId: null, position: result.position };
}
