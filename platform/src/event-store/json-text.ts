import type { EventMetadata } from '@wagers/contracts/events/envelope';
import type { GlobalPosition } from '@wagers/contracts/position';
import type { RecordedEvent } from './port.ts';

/**
 * An event read as text (the bulk read), which keeps the JSON text its data was parsed from: a
 * writer of the data as JSON (a history row) then need not stringify it again. The text is a
 * private field, so the event looks, compares and serialises as any other, and a copy of it (a
 * decorator's `{ ...event }`) carries no text: a copy's data may have been changed.
 */
export class EventWithDataText implements RecordedEvent {
  // Declared in the order of the store's other events' members, which logs and copies keep.
  id: string;
  streamId: string;
  revision: bigint;
  position: GlobalPosition;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  recordedAt: Date;
  readonly #parsed: unknown;
  readonly #text: string;

  constructor(
    id: string,
    streamId: string,
    revision: bigint,
    position: GlobalPosition,
    type: string,
    dataText: string,
    metadata: EventMetadata,
    recordedAt: Date,
  ) {
    this.id = id;
    this.streamId = streamId;
    this.revision = revision;
    this.position = position;
    this.type = type;
    this.data = this.#parsed = JSON.parse(dataText) as unknown;
    this.metadata = metadata;
    this.recordedAt = recordedAt;
    this.#text = dataText;
  }

  /** The JSON text of `value` if it is this event's data as read, or a shallow copy of it. */
  static dataText(event: RecordedEvent, value: unknown): string | null {
    if (!(event instanceof EventWithDataText) || event.data !== event.#parsed) return null;
    return sameContent(value, event.#parsed) ? event.#text : null;
  }
}

/**
 * The JSON text of `value`, without stringifying it, when `value` is the data of an event the
 * bulk read gave, or a copy of it with the same members (what a schema's parse gives back for data
 * it takes as it is); null when the text is not known to be `value`'s.
 */
export const dataJsonText = (event: RecordedEvent, value: unknown): string | null =>
  EventWithDataText.dataText(event, value);

/**
 * Whether `value` holds exactly the members of the parsed JSON `parsed`: the same keys, each the
 * same primitive or the very same object. A schema that dropped a member, added a default or
 * turned a value into another is seen here, and the caller stringifies instead.
 */
function sameContent(value: unknown, parsed: unknown): boolean {
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
