import { randomUUID } from 'node:crypto';
import { status, type ServerWritableStream } from '@grpc/grpc-js';
import { eventFilter } from './filter.ts';
import type { InMemoryLog, ReadStart, StoredEvent } from './log.ts';
import { eventMessage, streamIdentifier, streamName } from './messages.ts';
import { streams, type ReadReq, type ReadResp } from './protocol.ts';
import { send } from './send.ts';

type ReadCall = ServerWritableStream<ReadReq, ReadResp>;
const { Options: O } = streams.ReadReq;

function streamStart(options: InstanceType<typeof O.StreamOptions>): ReadStart {
  switch (options.getRevisionOptionCase()) {
    case O.StreamOptions.RevisionOptionCase.REVISION:
      return BigInt(options.getRevision());
    case O.StreamOptions.RevisionOptionCase.END:
      return 'end';
    default:
      return 'start';
  }
}

function allStart(options: InstanceType<typeof O.AllOptions> | undefined): ReadStart {
  switch (options?.getAllOptionCase()) {
    case O.AllOptions.AllOptionCase.POSITION:
      return BigInt(options.getPosition()!.getCommitPosition());
    case O.AllOptions.AllOptionCase.END:
      return 'end';
    default:
      return 'start';
  }
}

/** Ends the call with an error status, once what is already written has gone out. */
function fail(call: ReadCall, code: status, details: string): void {
  call.emit('error', Object.assign(new Error(details), { code, details }));
}

/** `Streams.Read`: a page of a stream or of $all, or a subscription to $all. */
export function readHandler(log: InMemoryLog, live: Set<() => void>) {
  return (call: ReadCall): void => {
    serveRead(call, log, live).catch((error: unknown) =>
      fail(call, status.INTERNAL, error instanceof Error ? error.message : String(error)),
    );
  };
}

async function serveRead(call: ReadCall, log: InMemoryLog, live: Set<() => void>): Promise<void> {
  const options = call.request.getOptions();
  if (!options) return fail(call, status.INVALID_ARGUMENT, 'Read needs options');
  const structuredIds =
    options.getUuidOption()?.getContentCase() === O.UUIDOption.ContentCase.STRUCTURED;
  const toMessage = (event: StoredEvent) => eventMessage(event, structuredIds);
  const keep = eventFilter(options);

  if (options.getCountOptionCase() === O.CountOptionCase.SUBSCRIPTION) {
    if (options.getStreamOptionCase() !== O.StreamOptionCase.ALL)
      return fail(call, status.UNIMPLEMENTED, 'The stand-in serves subscriptions to $all only');
    return subscribeToAll(call, log, allStart(options.getAll()), keep, toMessage, live);
  }

  const count = BigInt(options.getCount());
  const direction =
    options.getReadDirection() === O.ReadDirection.BACKWARDS ? 'backwards' : 'forwards';
  let events: StoredEvent[];
  if (options.getStreamOptionCase() === O.StreamOptionCase.STREAM) {
    const stream = options.getStream()!;
    const name = streamName(stream.getStreamIdentifier());
    const found = log.readStream(name, streamStart(stream), direction, count);
    if (found === null) {
      await send(
        call,
        new streams.ReadResp().setStreamNotFound(
          new streams.ReadResp.StreamNotFound().setStreamIdentifier(streamIdentifier(name)),
        ),
      );
      call.end();
      return;
    }
    events = found;
  } else {
    const from = allStart(options.getAll());
    events = options.hasFilter()
      ? log
          .readAll(from, direction, BigInt(Number.MAX_SAFE_INTEGER))
          .filter(keep)
          .slice(0, Number(count))
      : log.readAll(from, direction, count);
  }
  for (const event of events) if (!(await send(call, toMessage(event)))) return;
  call.end();
}

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
async function subscribeToAll(
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
        status.DEADLINE_EXCEEDED,
        'Consumer too slow to handle event while live. Client resubscription required.',
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
