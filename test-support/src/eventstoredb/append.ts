import type { sendUnaryData, ServerReadableStream } from '@grpc/grpc-js';
import { Metadata, status } from '@grpc/grpc-js';
import type { AppendOutcome, ExpectedState, InMemoryLog, ProposedEvent } from './log.ts';
import { empty, streamName, uuidText } from './messages.ts';
import { streams, type AppendReq, type AppendResp, type shared } from './protocol.ts';

const { Options } = streams.AppendReq;
const Case = Options.ExpectedStreamRevisionCase;

/** The cases of the expected-revision oneof both append methods' options share. */
export interface ExpectedCases {
  ANY: number;
  NO_STREAM: number;
  STREAM_EXISTS: number;
}

/**
 * What an append's options expect of the stream, from the case its oneof holds: `exact` is the
 * case that carries a revision, read by `revision`. Null when none is set.
 */
export function expectedState(
  which: number,
  cases: ExpectedCases,
  exact: number,
  revision: () => string,
): ExpectedState | null {
  if (which === cases.ANY) return { kind: 'any' };
  if (which === cases.NO_STREAM) return { kind: 'no_stream' };
  if (which === cases.STREAM_EXISTS) return { kind: 'stream_exists' };
  if (which === exact) return { kind: 'revision', revision: BigInt(revision()) };
  return null;
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

type Empty = ReturnType<typeof empty>;

/** The setters both methods' wrong-expected-version messages have for what the writer expected. */
export interface ExpectedSetters {
  setExpectedNoStream(value: Empty): unknown;
  setExpectedStreamExists(value: Empty): unknown;
  setExpectedAny(value: Empty): unknown;
}

/** Says in a wrong-expected-version message what the writer expected; `exact` sets a revision. */
export function describeExpected(
  answer: ExpectedSetters,
  expected: ExpectedState,
  exact: (revision: string) => unknown,
): void {
  if (expected.kind === 'revision') exact(expected.revision.toString());
  else if (expected.kind === 'no_stream') answer.setExpectedNoStream(empty());
  else if (expected.kind === 'stream_exists') answer.setExpectedStreamExists(empty());
  else answer.setExpectedAny(empty());
}

interface PositionSetters {
  setCommitPosition(value: string): unknown;
  setPreparePosition(value: string): unknown;
}

/** The setters both methods' success messages have. */
export interface SuccessSetters<Position extends PositionSetters> {
  setNoStream(value: Empty): unknown;
  setCurrentRevision(value: string): unknown;
  setNoPosition(value: Empty): unknown;
  setPosition(value: Position): unknown;
}

/** Says in a success message where the stream and the log stand after a write. */
export function describeSuccess<Position extends PositionSetters>(
  success: SuccessSetters<NoInfer<Position>>,
  outcome: Extract<AppendOutcome, { ok: true }>,
  position: Position,
): void {
  if (outcome.currentRevision === null) success.setNoStream(empty());
  else success.setCurrentRevision(outcome.currentRevision.toString());
  if (outcome.position === null) {
    success.setNoPosition(empty());
    return;
  }
  // One number for both: the commit position of the write (see decision 0009).
  position.setCommitPosition(outcome.position.toString());
  position.setPreparePosition(outcome.position.toString());
  success.setPosition(position);
}

/**
 * The server answers a wrong expected version to `Append` with a response, not an error status:
 * the stream's current revision and what the writer expected.
 */
function wrongExpectedVersion(expected: ExpectedState, current: bigint | null): AppendResp {
  const answer = new streams.AppendResp.WrongExpectedVersion();
  if (current === null) answer.setCurrentNoStream(empty());
  else answer.setCurrentRevision(current.toString());
  describeExpected(answer, expected, (revision) => answer.setExpectedRevision(revision));
  return new streams.AppendResp().setWrongExpectedVersion(answer);
}

/** `Streams.Append`: options, then the events; all are written once the client ends its side. */
export function appendHandler(log: InMemoryLog) {
  return (call: ServerReadableStream<AppendReq, AppendResp>, reply: sendUnaryData<AppendResp>) => {
    const messages: AppendReq[] = [];
    call.on('data', (message: AppendReq) => messages.push(message));
    call.on('end', () => {
      const options = messages[0]?.getOptions();
      const expected =
        options &&
        expectedState(options.getExpectedStreamRevisionCase(), Case, Case.REVISION, () =>
          options.getRevision(),
        );
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
      describeSuccess(success, outcome, new streams.AppendResp.Position());
      reply(null, new streams.AppendResp().setSuccess(success));
    });
  };
}
