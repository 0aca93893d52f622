import {
  ERASED_IN_EXPORT,
  type AuditAsOf,
  type AuditExport,
  type AuditHistoryEntry,
} from '@wagers/contracts/api/audit';
import { betStream } from '@wagers/contracts/events/bet';
import { ZodError } from 'zod';
import { evolve, initialBetState, readBetEvent } from '@wagers/domain/bets/bet';
import { isUuid } from '@wagers/contracts/ids';
import {
  eventHash,
  isMetadataObject,
  storedHash,
  type ChainAnchor,
} from '@wagers/platform/event-store/event-hash';
import { fieldsOf, sealedKeyId } from '@wagers/platform/event-store/sealed-fields';
import type { RecordedEvent } from '@wagers/platform/event-store/port';
import { zodFieldErrors } from '@wagers/platform/http/problem';

/**
 * Every event of a bet's stream in order, each with the bet's state right after it: the stream
 * replayed through the bet's own `evolve`, so the state shown is the one its rules decided on.
 * An event whose stored data its schema refuses (edited in the database) is still listed, with
 * why, and leaves the state as it was: the history of such a bet is what an auditor needs most.
 */
export function auditHistory(
  recorded: readonly RecordedEvent[],
  nameOf: (userId: string | null) => string,
  { stored = [], recordedTimes = new Map() }: StoredDetails = {},
): AuditHistoryEntry[] {
  const storedById = new Map(stored.map((event) => [event.id, event]));
  let state = initialBetState();
  return recorded.map((event) => {
    const metadata: Record<string, unknown> = isMetadataObject(event.metadata)
      ? event.metadata
      : {};
    const problems = [...metadataProblems(event), ...sealedProblems(storedById.get(event.id))];
    try {
      const domainEvent = readBetEvent(event);
      // An event the log would never have written (its metadata or a sealed value edited) is
      // listed, and applied no more than one whose data its schema refuses.
      if (domainEvent && problems.length === 0) state = evolve(state, domainEvent);
    } catch (error) {
      if (!(error instanceof ZodError)) throw error;
      problems.push(...zodFieldErrors(error).map((issue) => `${issue.field}: ${issue.message}`));
    }
    const actorId = typeof metadata.actorId === 'string' ? metadata.actorId : null;
    return {
      revision: Number(event.revision),
      eventId: event.id,
      type: event.type,
      actorId,
      actorName: nameOf(actorId),
      occurredAt: text(metadata.occurredAt),
      recordedAt: recordedAtOf(event, recordedTimes),
      correlationId: text(metadata.correlationId),
      causationId: typeof metadata.causationId === 'string' ? metadata.causationId : null,
      data: event.data,
      hash: storedHash(event) ?? null,
      stateAfter: { ...state },
      readError: problems.length > 0 ? problems.join('; ') : null,
    };
  });
}

/** What the reads of the store do not give: the events as stored, and when each was recorded. */
export interface StoredDetails {
  /** The stream as stored (sealed values sealed), to name a sealed value edited in the database. */
  stored?: readonly RecordedEvent[];
  /** When the log recorded each event, to the microsecond, by event id (`recordedTimes`). */
  recordedTimes?: ReadonlyMap<string, string>;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * When the log recorded an event: to the microsecond, as PostgreSQL stores it; or, for a log that
 * keeps no such time (the EventStoreDB adapter's), the Date the store's read gave, to the
 * millisecond, claiming no digit it does not have.
 */
function recordedAtOf(event: RecordedEvent, times: ReadonlyMap<string, string>): string {
  return times.get(event.id) ?? event.recordedAt.toISOString();
}

const INSTANT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Microseconds since 1970 of an ISO 8601 instant (as the history query schema takes it), a
 * fraction finer than a microsecond cut off: an event recorded at a whole microsecond is at or
 * before the instant exactly when it is at or before the cut-off one.
 */
export function instantMicros(instant: string): bigint {
  const match = INSTANT.exec(instant);
  const seconds = match ? Date.parse(`${match[1]}${match[3]}`) : Number.NaN;
  if (!match || Number.isNaN(seconds)) throw new RangeError(`Not an instant: ${instant}`);
  const fraction = (match[2] ?? '').padEnd(6, '0').slice(0, 6);
  return BigInt(seconds) * 1000n + BigInt(fraction);
}

/**
 * An instant in microseconds as UTC ISO 8601: to the millisecond, as JavaScript writes instants,
 * or with six digits of a second when it falls between two milliseconds.
 */
export function microsInstant(micros: bigint): string {
  // Floored, so that an instant before 1970 is written right too.
  const below = ((micros % 1000n) + 1000n) % 1000n;
  const ms = new Date(Number((micros - below) / 1000n)).toISOString();
  return below === 0n ? ms : ms.replace(/Z$/, `${below.toString().padStart(3, '0')}Z`);
}

/** What in an event's metadata no writer stores: metadata that is no object, an actor no user. */
function metadataProblems(event: RecordedEvent): string[] {
  const metadata: unknown = event.metadata;
  if (!isMetadataObject(metadata)) {
    return [`metadata: not an object, as the log writes it (${JSON.stringify(metadata)})`];
  }
  const actorId = metadata.actorId;
  if (actorId === null || (typeof actorId === 'string' && isUuid(actorId))) return [];
  return [`metadata.actorId: not a user id (${JSON.stringify(actorId)})`];
}

/** Sealed personal fields whose key id names no key the product could have made. */
function sealedProblems(stored: RecordedEvent | undefined): string[] {
  const fields = stored && fieldsOf(stored.type);
  if (!fields || typeof stored.data !== 'object' || stored.data === null) return [];
  const data = stored.data as Record<string, unknown>;
  return Object.keys(fields).flatMap((field) => {
    const keyId = sealedKeyId(data[field]);
    return keyId === null || isUuid(keyId)
      ? []
      : [`${field}: sealed with a key id that names no key (${JSON.stringify(keyId)})`];
  });
}

/** The moment a history is read as of: the one asked for, or now when that one is still to come. */
export interface AsOfMoment {
  /** Microseconds since 1970, as precise as the log's `recorded_at`. */
  at: bigint;
  /** The moment asked for was later than now: the whole history as read is the answer. */
  stillToCome: boolean;
}

export function asOfMoment(asked: string, now: Date): AsOfMoment {
  const at = instantMicros(asked);
  const nowMicros = BigInt(now.getTime()) * 1000n;
  return at > nowMicros ? { at: nowMicros, stillToCome: true } : { at, stillToCome: false };
}

/**
 * The history as of a moment: the events the log had recorded by then (by `recordedAt`, the time
 * the log stored each one), and the bet's state then. The cut ends before the first event recorded
 * after the moment, so what is shown is always the stream's beginning and a state the bet was in;
 * before its first event the bet did not exist yet and its state is the one before any event.
 */
export function historyAsOf(
  entries: readonly AuditHistoryEntry[],
  moment: AsOfMoment,
): { entries: AuditHistoryEntry[]; asOf: AuditAsOf } {
  const firstLater = moment.stillToCome
    ? -1
    : entries.findIndex((entry) => instantMicros(entry.recordedAt) > moment.at);
  const kept = entries.slice(0, firstLater === -1 ? entries.length : firstLater);
  const last = kept.at(-1);
  return {
    entries: kept,
    asOf: {
      at: microsInstant(moment.at),
      existed: kept.length > 0,
      state: last ? last.stateAfter : { ...initialBetState() },
      laterEvents: entries.length - kept.length,
    },
  };
}

/**
 * The stream exactly as stored, with the anchor of events that predate hash chains; except the
 * personal fields `erasedFields` names (stored in clear, their subject erased), which read
 * `{ "erased": true }`, their event marked redacted with its link in the chain as stored.
 */
export function auditExport(
  betId: string,
  recorded: readonly RecordedEvent[],
  anchor: ChainAnchor | null,
  now: Date,
  recordedTimes: ReadonlyMap<string, string> = new Map(),
  erasedFields: ReadonlyMap<string, readonly string[]> = new Map(),
): AuditExport {
  let previous: string | null = null;
  return {
    format: 'wagers-audit-export/1',
    betId,
    streamId: betStream(betId),
    exportedAt: now.toISOString(),
    anchor: anchor && { throughRevision: Number(anchor.throughRevision), hash: anchor.hash },
    events: recorded.map((event) => {
      // The chain as `chainHead` follows it: the stored hash, or the one computed for an event
      // written before hash chains, from the event as stored.
      previous = storedHash(event) ?? eventHash(event, previous);
      const exported = {
        revision: Number(event.revision),
        id: event.id,
        type: event.type,
        data: event.data,
        metadata: event.metadata,
        recordedAt: recordedAtOf(event, recordedTimes),
      };
      const fields = erasedFields.get(event.id);
      if (!fields || fields.length === 0) return exported;
      const data: Record<string, unknown> = { ...(event.data as Record<string, unknown>) };
      for (const field of fields) data[field] = { ...ERASED_IN_EXPORT };
      return { ...exported, data, redacted: { fields: [...fields], hash: previous } };
    }),
  };
}
