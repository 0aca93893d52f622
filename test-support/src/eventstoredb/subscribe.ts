import { randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import type { InMemoryLog, ReadStart, StoredEvent } from './log.ts';
import { streams, type ReadResp } from './protocol.ts';
import type { ReadCall } from './read.ts';
import { fail, send } from './send.ts';

/**
 * How many live events a subscriber may leave unread before the server drops it
 * (`MaxLiveEventBufferCount` in the server's source, 32 or 512 by version).
 */
const LIVE_BUFFER = 512;

/**
 * Confirms, hands over the stored events after the start (and those written meanwhile), says it
 * has caught up, then hands over each new event as it is written, until the client cancels, the
 * server stops, or the client leaves more than LIVE_BUFFER live events unread.
 */
export async function subscribeToAll(
  call: ReadCall,
  log: InMemoryLog,
  from: ReadStart,
  keep: (event: StoredEvent) => boolean,
  toMessage: (event: StoredEvent) => ReadResp,
  live: Set<() => void>,
): Promise<void> {
  const pending: StoredEvent[] = [];
  let wake: (() => void) | null = null;
  let caughtUp = false;
  let over = false;
  const stop = () => {
    over = true;
    following.stop();
    live.delete(stop);
    wake?.();
  };
  const following = log.follow(from, (events) => {
    pending.push(...events.filter(keep));
    if (caughtUp && pending.length > LIVE_BUFFER) {
      stop();
      fail(
        call,
        status.ABORTED,
        'Operation timed out: Consumer too slow to handle event while live. Client resubscription required.',
      );
    }
    wake?.();
  });
  live.add(stop);
  call.once('cancelled', stop);
  call.once('close', stop);
  const deliver = async (event: StoredEvent) => !over && (await send(call, toMessage(event)));

  const confirmation = new streams.ReadResp.SubscriptionConfirmation().setSubscriptionId(
    randomUUID(),
  );
  if (!(await send(call, new streams.ReadResp().setConfirmation(confirmation)))) return stop();
  for (const event of following.stored.filter(keep)) if (!(await deliver(event))) return stop();
  for (let event = pending.shift(); event; event = pending.shift())
    if (!(await deliver(event))) return stop();
  caughtUp = true;
  if (!(await send(call, new streams.ReadResp().setCaughtUp(new streams.ReadResp.CaughtUp()))))
    return stop();
  while (!over) {
    const event = pending.shift();
    if (event) {
      if (!(await deliver(event))) return stop();
    } else {
      await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
  }
  if (!call.cancelled && !call.writableEnded) call.end();
}
