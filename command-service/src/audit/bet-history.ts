import type { AuditAsOf, AuditExport, AuditHistoryEntry } from '@wagers/contracts/api/audit';
import { betStream } from '@wagers/contracts/events/bet';
import { ZodError } from 'zod';
import { evolve, initialBetState, readBetEvent } from '@wagers/domain/bets/bet';
import { isUuid } from '@wagers/contracts/ids';
import {
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
  stored: readonly RecordedEvent[] = [],
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
      recordedAt: event.recordedAt.toISOString(),
      correlationId: text(metadata.correlationId),
      causationId: typeof metadata.causationId === 'string' ? metadata.causationId : null,
      data: event.data,
      hash: storedHash(event) ?? null,
      stateAfter: { ...state },
      readError: problems.length > 0 ? problems.join('; ') : null,
    };
  });
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

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
  at: Date;
  /** The moment asked for was later than now: the whole history as read is the answer. */
  stillToCome: boolean;
}

export function asOfMoment(asked: string, now: Date): AsOfMoment {
  const at = new Date(asked);
  return at > now ? { at: now, stillToCome: true } : { at, stillToCome: false };
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
  const cutAt = moment.at.getTime();
  const firstLater = moment.stillToCome
    ? -1
    : entries.findIndex((entry) => Date.parse(entry.recordedAt) > cutAt);
  const kept = entries.slice(0, firstLater === -1 ? entries.length : firstLater);
  const last = kept.at(-1);
  return {
    entries: kept,
    asOf: {
      at: moment.at.toISOString(),
      existed: kept.length > 0,
      state: last ? last.stateAfter : { ...initialBetState() },
      laterEvents: entries.length - kept.length,
    },
  };
}

/** The stream exactly as stored, with the anchor of events that predate hash chains. */
export function auditExport(
  betId: string,
  recorded: readonly RecordedEvent[],
  anchor: ChainAnchor | null,
  now: Date,
): AuditExport {
  return {
    format: 'wagers-audit-export/1',
    betId,
    streamId: betStream(betId),
    exportedAt: now.toISOString(),
    anchor: anchor && { throughRevision: Number(anchor.throughRevision), hash: anchor.hash },
    events: recorded.map((event) => ({
      revision: Number(event.revision),
      id: event.id,
      type: event.type,
      data: event.data,
      metadata: event.metadata,
      recordedAt: event.recordedAt.toISOString(),
    })),
  };
}
