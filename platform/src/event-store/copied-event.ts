import type { EventMetadata } from '@wagers/contracts/events/envelope';
import type { GlobalPosition } from '@wagers/contracts/position';
import type { RecordedEvent } from './port.ts';

/**
 * An event the bulk read parsed from COPY's text, which keeps where in that text its stream id,
 * revision, id, type and data stand: five columns in a row, escaped as COPY writes them. A writer
 * of those values in COPY's text format (a history row) takes them from there, without escaping
 * each again or stringifying the data. What it keeps is private: the event looks, compares and
 * serialises as any other, and a copy of it (a decorator's `{ ...event }`) keeps nothing.
 */
export class CopiedEvent implements RecordedEvent {
  // In the order of the members of the store's other events, which logs and copies keep.
  id: string;
  streamId: string;
  revision: bigint;
  position: GlobalPosition;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  recordedAt: Date;
  /** The members as parsed, to see that none has been replaced since. */
  readonly #id: string;
  readonly #streamId: string;
  readonly #revision: bigint;
  readonly #type: string;
  readonly #data: unknown;
  /** The COPY text, and where the five columns from the stream id to the data lie in it. */
  readonly #text: string;
  readonly #from: number;
  readonly #to: number;

  /** `from` and `to`: where the columns from the stream id to the data lie in `text`. */
  constructor(
    id: string,
    streamId: string,
    revision: bigint,
    position: GlobalPosition,
    type: string,
    dataJson: string,
    metadata: EventMetadata,
    recordedAt: Date,
    text: string,
    from: number,
    to: number,
  ) {
    this.id = this.#id = id;
    this.streamId = this.#streamId = streamId;
    this.revision = this.#revision = revision;
    this.position = position;
    this.type = this.#type = type;
    this.data = this.#data = JSON.parse(dataJson) as unknown;
    this.metadata = metadata;
    this.recordedAt = recordedAt;
    this.#text = text;
    this.#from = from;
    this.#to = to;
  }

  static columns(event: RecordedEvent, data: unknown, streamIdFrom: number): string | null {
    if (
      !(event instanceof CopiedEvent) ||
      event.id !== event.#id ||
      event.streamId !== event.#streamId ||
      event.revision !== event.#revision ||
      event.type !== event.#type ||
      event.data !== event.#data ||
      !sameMembers(data, event.#data)
    ) {
      return null;
    }
    // The characters skipped are the stream id's own: the caller saw them, and COPY escapes none.
    return event.#text.slice(event.#from + streamIdFrom, event.#to);
  }
}

/**
 * The event's stream id (from its character `streamIdFrom`, which with those before it must need
 * no escaping, as letters and dashes do not), revision, id, type and data as five columns of
 * COPY's text format, taken from the text the bulk read parsed. Null, and the caller makes them,
 * unless the event is as that read gave it and `data` holds exactly the members of its data: its
 * data itself, or what a schema's parse gave back for data it took as it was.
 */
export const copiedColumns = (
  event: RecordedEvent,
  data: unknown,
  streamIdFrom = 0,
): string | null => CopiedEvent.columns(event, data, streamIdFrom);

/**
 * Whether `value` holds exactly the members of the parsed JSON `parsed`: the same keys, each the
 * same primitive or the very same object. A schema that dropped a member, added a default or
 * turned a value into another is seen here.
 */
function sameMembers(value: unknown, parsed: unknown): boolean {
  if (value === parsed) return true;
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof parsed !== 'object' ||
    parsed === null ||
    Array.isArray(value) ||
    Array.isArray(parsed)
  ) {
    return false;
  }
  const a = value as Record<string, unknown>;
  const b = parsed as Record<string, unknown>;
  let members = 0;
  for (const key in b) {
    // JSON has no undefined or functions, so a key `value` lacks never matches.
    if (a[key] !== b[key]) return false;
    members++;
  }
  for (const _key in a) members--;
  return members === 0;
}
