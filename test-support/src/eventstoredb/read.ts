import { status, type ServerWritableStream } from '@grpc/grpc-js';
import { eventFilter } from './filter.ts';
import type { InMemoryLog, ReadStart, StoredEvent } from './log.ts';
import { eventMessage, streamIdentifier, streamName } from './messages.ts';
import { streams, type ReadReq, type ReadResp } from './protocol.ts';
import { fail, send } from './send.ts';
import { subscribeToAll } from './subscribe.ts';

export type ReadCall = ServerWritableStream<ReadReq, ReadResp>;
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
    return subscribeToAll(
      call,
      log,
      allStart(options.getAll()),
      keep,
      options.hasFilter(),
      toMessage,
      live,
    );
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
