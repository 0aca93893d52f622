import type { sendUnaryData, ServerReadableStream } from '@grpc/grpc-js';
import { Metadata, status } from '@grpc/grpc-js';
import type { ExpectedState, InMemoryLog, ProposedEvent } from './log.ts';
import { empty, streamName, uuidText } from './messages.ts';
import { streams, type AppendReq, type AppendResp, type shared } from './protocol.ts';

const { Options } = streams.AppendReq;
const Case = Options.ExpectedStreamRevisionCase;

function expectedState(options: InstanceType<typeof Options>): ExpectedState | null {
  switch (options.getExpectedStreamRevisionCase()) {
    case Case.ANY:
      return { kind: 'any' };
    case Case.NO_STREAM:
      return { kind: 'no_stream' };
    case Case.STREAM_EXISTS:
      return { kind: 'stream_exists' };
    case Case.REVISION:
      return { kind: 'revision', revision: BigInt(options.getRevision()) };
    default:
      return null;
  }
}

/** A refusal as the server sends it: a status, and what went wrong in the trailers. */
function refusal(code: status, details: string, trailers: Record<string, string> = {}) {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(trailers)) metadata.set(key, value);
  return Object.assign(new Error(details), { code, details, metadata });
}

/** Options first, then events: anything else makes the server's handler throw. */
const unexpectedMessage = () => refusal(status.UNKNOWN, 'Exception was thrown by handler.');

const missingMetadata = (property: string) =>
  refusal(status.INVALID_ARGUMENT, `Required Metadata Property '${property}' is missing`, {
    exception: 'missing-required-metadata-property',
    'required-metadata-properties': 'type,content-type',
  });

/** An event as either append method proposes it. */
export interface ProposedMessage {
  getId(): InstanceType<typeof shared.UUID> | undefined;
  getMetadataMap(): { get(key: string): string | undefined };
  getData_asU8(): Uint8Array;
  getCustomMetadata_asU8(): Uint8Array;
}

/** The event a message proposes, or the metadata property it lacks. */
export function proposedEvent(
  message: ProposedMessage,
): ProposedEvent | { missing: 'type' | 'content-type' } {
  const metadata = message.getMetadataMap();
  const type = metadata.get('type');
  const contentType = metadata.get('content-type');
  if (type === undefined) return { missing: 'type' };
  if (contentType === undefined) return { missing: 'content-type' };
  return {
    id: uuidText(message.getId()) ?? '',
    type,
    contentType,
    data: message.getData_asU8(),
    customMetadata: message.getCustomMetadata_asU8(),
  };
}

/** The event a message proposes, or the server's refusal of it. */
function proposed(message: AppendReq): ProposedEvent | { refused: Error } {
  const event = message.getProposedMessage();
  if (!event || !uuidText(event.getId())) return { refused: unexpectedMessage() };
  const found = proposedEvent(event);
  return 'missing' in found ? { refused: missingMetadata(found.missing) } : found;
}

/**
 * The server answers a wrong expected version to `Append` with a response, not an error status:
 * the stream's current revision and what the writer expected.
 */
function wrongExpectedVersion(expected: ExpectedState, current: bigint | null): AppendResp {
  const answer = new streams.AppendResp.WrongExpectedVersion();
  if (current === null) answer.setCurrentNoStream(empty());
  else answer.setCurrentRevision(current.toString());
  if (expected.kind === 'revision') answer.setExpectedRevision(expected.revision.toString());
  else if (expected.kind === 'no_stream') answer.setExpectedNoStream(empty());
  else if (expected.kind === 'stream_exists') answer.setExpectedStreamExists(empty());
  else answer.setExpectedAny(empty());
  return new streams.AppendResp().setWrongExpectedVersion(answer);
}

/** `Streams.Append`: options, then the events; all are written once the client ends its side. */
export function appendHandler(log: InMemoryLog) {
  return (call: ServerReadableStream<AppendReq, AppendResp>, reply: sendUnaryData<AppendResp>) => {
    const messages: AppendReq[] = [];
    call.on('data', (message: AppendReq) => messages.push(message));
    call.on('end', () => {
      const options = messages[0]?.getOptions();
      const expected = options && expectedState(options);
      if (!options || !expected) return reply(unexpectedMessage());
      const events: ProposedEvent[] = [];
      for (const message of messages.slice(1)) {
        const event = proposed(message);
        if ('refused' in event) return reply(event.refused);
        events.push(event);
      }
      const outcome = log.append(
        streamName(options.getStreamIdentifier()),
        expected,
        events,
        new Date(),
      );
      if (!outcome.ok) return reply(null, wrongExpectedVersion(expected, outcome.currentRevision));
      const success = new streams.AppendResp.Success();
      if (outcome.currentRevision === null) success.setNoStream(empty());
      else success.setCurrentRevision(outcome.currentRevision.toString());
      if (outcome.position === null) success.setNoPosition(empty());
      else
        success.setPosition(
          new streams.AppendResp.Position()
            .setCommitPosition(outcome.position.toString())
            .setPreparePosition(outcome.position.toString()),
        );
      reply(null, new streams.AppendResp().setSuccess(success));
    });
  };
}
