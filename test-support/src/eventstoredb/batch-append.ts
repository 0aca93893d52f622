import { status, type ServerDuplexStream } from '@grpc/grpc-js';
import type { Message } from 'google-protobuf';
import { describeExpected, describeSuccess, expectedState, proposedEvent } from './append.ts';
import type { ExpectedState, InMemoryLog, ProposedEvent } from './log.ts';
import { empty, streamIdentifier, streamName, uuidText } from './messages.ts';
import {
  anyMessage,
  rpc,
  shared,
  streams,
  type BatchAppendReq,
  type BatchAppendResp,
  type RpcStatus,
} from './protocol.ts';

const { Options } = streams.BatchAppendReq;
const Case = Options.ExpectedStreamPositionCase;

/** The server's default write timeout (`WriteTimeoutMs`); a client's deadline can only shorten it. */
const WRITE_TIMEOUT_MS = 2_000;

type BatchAppendCall = ServerDuplexStream<BatchAppendReq, BatchAppendResp>;

/** A write whose options have arrived and whose final chunk has not. */
interface PendingWrite {
  streamId: string;
  expected: ExpectedState;
  events: ProposedEvent[];
  timer: NodeJS.Timeout;
}

/** A `google.rpc.Status` with its detail packed, as the server's `Status` helpers build it. */
function rpcStatus(code: status, message: string, detail: Message, typeName: string): RpcStatus {
  const details = new anyMessage.Any();
  details.pack(detail.serializeBinary(), `event_store.client.${typeName}`);
  // grpc-js numbers its status codes as google.rpc.Code does.
  return new rpc.Status().setCode(Number(code)).setMessage(message).setDetails(details);
}

const timeout = () =>
  rpcStatus(status.DEADLINE_EXCEEDED, 'Timeout', new shared.Timeout(), 'Timeout');

const badRequest = (message: string) =>
  rpcStatus(
    status.INVALID_ARGUMENT,
    'BadRequest',
    new shared.BadRequest().setMessage(message),
    'BadRequest',
  );

function wrongExpectedVersion(expected: ExpectedState, current: bigint | null): RpcStatus {
  const detail = new shared.WrongExpectedVersion();
  if (current === null) detail.setCurrentNoStream(empty());
  else detail.setCurrentStreamRevision(current.toString());
  describeExpected(detail, expected, (revision) => detail.setExpectedStreamPosition(revision));
  return rpcStatus(status.ALREADY_EXISTS, 'WrongExpectedVersion', detail, 'WrongExpectedVersion');
}

/** How long the server waits for a write's final chunk: the client's deadline, at most its own. */
function timeLeft(options: InstanceType<typeof Options>): number {
  const deadline = options.getDeadline();
  const requested = deadline ? deadline.toDate().getTime() - Date.now() : Infinity;
  return Math.min(requested, WRITE_TIMEOUT_MS);
}

/**
 * `Streams.BatchAppend`, as the server's `BatchAppendWorker` serves it: any number of writes on
 * one call, each a run of chunks under one correlation id, the first carrying the options. The
 * events are written once the chunk marked final arrives, and each write is answered on its own:
 * success, or a packed `google.rpc.Status` (wrong expected version, deadline, bad request). A
 * write whose final chunk does not come in time is answered with a timeout and forgotten.
 */
export function batchAppendHandler(log: InMemoryLog) {
  return (call: BatchAppendCall): void => {
    const pending = new Map<string, PendingWrite>();
    const answer = (correlation: BatchAppendReq, streamId: string, response: BatchAppendResp) => {
      response.setCorrelationId(correlation.getCorrelationId());
      response.setStreamIdentifier(streamIdentifier(streamId));
      if (!call.cancelled && !call.writableEnded) call.write(response);
    };
    const fail = (request: BatchAppendReq, streamId: string, error: RpcStatus) =>
      answer(request, streamId, new streams.BatchAppendResp().setError(error));

    const receive = (request: BatchAppendReq) => {
      const id = uuidText(request.getCorrelationId()) ?? '';
      const options = request.getOptions();
      if (options) {
        const streamId = streamName(options.getStreamIdentifier());
        const expected = expectedState(
          options.getExpectedStreamPositionCase(),
          Case,
          Case.STREAM_POSITION,
          () => options.getStreamPosition(),
        );
        if (!options.hasStreamIdentifier())
          return fail(request, streamId, badRequest('Required field StreamIdentifier not set.'));
        const wait = timeLeft(options);
        if (wait <= 0) return fail(request, streamId, timeout());
        if (!expected)
          return fail(request, streamId, badRequest('Expected stream position not set.'));
        if (!pending.has(id)) {
          const timer = setTimeout(() => {
            if (pending.delete(id)) fail(request, streamId, timeout());
          }, wait);
          pending.set(id, { streamId, expected, events: [], timer });
        }
      }
      const write = pending.get(id);
      if (!write) return;
      for (const message of request.getProposedMessagesList()) {
        const event = proposedEvent(message);
        if ('missing' in event) {
          pending.delete(id);
          clearTimeout(write.timer);
          return fail(
            request,
            write.streamId,
            badRequest(`The given key '${event.missing}' was not present in the dictionary.`),
          );
        }
        write.events.push(event);
      }
      if (!request.getIsFinal()) return;
      pending.delete(id);
      clearTimeout(write.timer);
      const outcome = log.append(write.streamId, write.expected, write.events, new Date());
      if (!outcome.ok)
        return fail(
          request,
          write.streamId,
          wrongExpectedVersion(write.expected, outcome.currentRevision),
        );
      const success = new streams.BatchAppendResp.Success();
      describeSuccess(success, outcome, new shared.AllStreamPosition());
      answer(request, write.streamId, new streams.BatchAppendResp().setSuccess(success));
    };

    const forget = () => {
      for (const write of pending.values()) clearTimeout(write.timer);
      pending.clear();
    };
    call.on('data', receive);
    call.on('end', () => {
      forget();
      if (!call.cancelled && !call.writableEnded) call.end();
    });
    call.once('cancelled', forget);
    call.once('error', forget);
  };
}
