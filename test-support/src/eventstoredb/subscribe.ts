import { randomUUID } from 'node:crypto';
import type { InMemoryLog, ReadStart, StoredEvent } from './log.ts';
import { streams, type ReadResp } from './protocol.ts';
import type { ReadCall } from './read.ts';
import { send } from './send.ts';

/**
 * How many live events the server holds for a subscriber (`MaxLiveEventBufferCount` in 24.10's
 * Enumerator.cs). The channel drops its oldest event to take a new one when full.
 */
const LIVE_BUFFER = 32;
/** How many events a catch-up read takes at once (`ReadBatchSize`). */
const READ_BATCH = 32;
/** A position of -1 (nothing sent yet, from the start) as it goes on the wire. */
const NO_POSITION = 2n ** 64n - 1n;

/** A live event with its place in the order the live channel took them. */
interface LiveEvent {
  sequence: number;
  event: StoredEvent;
}

const checkpointMessage = (position: bigint) => {
  const at = (position < 0n ? NO_POSITION : position).toString();
  return new streams.ReadResp().setCheckpoint(
    new streams.ReadResp.Checkpoint().setCommitPosition(at).setPreparePosition(at),
  );
};

/**
 * A subscription to $all as 24.10's `Enumerator.AllSubscription(Filtered)` serves it: it follows
 * the live writes first, confirms, catches up from the log strictly after the start position,
 * sends `CaughtUp`, then the live events. The live channel is bounded and drops its oldest
 * event when full; a gap in it (the subscriber, or the connection, was too slow) sends
 * `FellBehind` and goes back to catching up from the last event sent, then `CaughtUp` again. A
 * filtered subscription also sends a checkpoint at the end of each catch-up and before falling
 * behind. Nothing is ever sent twice or skipped, and the subscriber is never dropped; writes wait
 * for the client to take in what is buffered (gRPC backpressure).
 */
export async function subscribeToAll(
  call: ReadCall,
  log: InMemoryLog,
  from: ReadStart,
  keep: (event: StoredEvent) => boolean,
  filtered: boolean,
  toMessage: (event: StoredEvent) => ReadResp,
  live: Set<() => void>,
): Promise<void> {
  const liveEvents: LiveEvent[] = [];
  let taken = 0;
  let wake: (() => void) | null = null;
  let over = false;
  const stopFollowing = log.follow((events) => {
    for (const event of events.filter(keep)) {
      liveEvents.push({ sequence: ++taken, event });
      if (liveEvents.length > LIVE_BUFFER) liveEvents.shift();
    }
    wake?.();
  });
  const stop = () => {
    over = true;
    stopFollowing();
    live.delete(stop);
    wake?.();
  };
  live.add(stop);
  call.once('cancelled', stop);
  call.once('close', stop);
  const emit = async (message: ReadResp) => !over && (await send(call, message));

  // The last position the server had indexed when it took the subscription.
  const lastLive = log.lastPosition() ?? -1n;
  // The last event (or checkpoint) sent: events go out strictly after it.
  let checkpoint = from === 'start' ? -1n : from === 'end' ? lastLive : from;
  // The last sequence number taken from the live channel.
  let sequence = 0;

  const catchUp = async (): Promise<boolean> => {
    let cursor = checkpoint;
    for (;;) {
      const page = log.readAllAfter(cursor < 0n ? null : cursor, READ_BATCH);
      for (const event of page) {
        cursor = event.position;
        if (!keep(event)) continue;
        if (!(await emit(toMessage(event)))) return false;
        checkpoint = event.position;
      }
      if (page.length < READ_BATCH) return !filtered || emit(checkpointMessage(checkpoint));
    }
  };

  const goLive = async (): Promise<boolean> => {
    if (!(await emit(new streams.ReadResp().setCaughtUp(new streams.ReadResp.CaughtUp()))))
      return false;
    while (!over) {
      const next = liveEvents.shift();
      if (!next) {
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
        continue;
      }
      const inSequence = next.sequence === sequence + 1;
      sequence = next.sequence;
      // Sent already while catching up (or before the start position).
      if (next.event.position <= checkpoint) continue;
      if (!inSequence) {
        if (!(await emit(new streams.ReadResp().setFellBehind(new streams.ReadResp.FellBehind()))))
          return false;
        return !filtered || emit(checkpointMessage(checkpoint));
      }
      if (!(await emit(toMessage(next.event)))) return false;
      checkpoint = next.event.position;
    }
    return false;
  };

  const confirmation = new streams.ReadResp.SubscriptionConfirmation().setSubscriptionId(
    randomUUID(),
  );
  let going = await emit(new streams.ReadResp().setConfirmation(confirmation));
  if (going && checkpoint >= lastLive) going = await goLive();
  while (going) going = (await catchUp()) && (await goLive());
  stop();
  if (!call.cancelled && !call.writableEnded) call.end();
}
