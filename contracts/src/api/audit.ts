import { z } from 'zod';
import type { EventMetadata } from '../events/envelope.ts';

/** A day of the calendar, as YYYY-MM-DD: 2024-02-30 or 2024-13-01 is no day at all. */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD')
  .refine((value) => {
    const parsed = new Date(`${value}T00:00:00Z`);
    return (
      !Number.isNaN(parsed.getTime()) &&
      parsed.toISOString().startsWith(value) &&
      !value.startsWith('0000')
    );
  }, 'No such day');

/** The most bets one search answers, the newest; the web app says when a search reaches it. */
export const AUDIT_SEARCH_LIMIT = 50;

/** GET /api/audit/bets: a bet id, a participant's email or name, and/or the days it was created in. */
export const auditSearchQuerySchema = z
  .object({
    q: z.string().trim().max(200).optional(),
    from: day.optional(),
    to: day.optional(),
  })
  // Days given the wrong way round would find nothing, and read as "no bets in those days".
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    path: ['to'],
    message: 'Must be on or after from',
  });
export type AuditSearchQuery = z.infer<typeof auditSearchQuerySchema>;

/**
 * A moment, as an ISO 8601 instant: a date and a time to the second (a fraction allowed) with its
 * offset, Z for UTC. 2026-02-30T12:00:00Z or 24:00 is no moment at all.
 */
const instant = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/, {
    message: 'Use an ISO 8601 instant, such as 2026-03-03T14:00:00Z',
    abort: true,
  })
  .refine((value) => z.iso.datetime({ offset: true }).safeParse(value).success, 'No such moment');

/**
 * GET /api/audit/bets/{id}/history: with `asOf`, only the events the log had recorded by that
 * moment, and the bet's state then. A moment still to come means now.
 */
export const auditHistoryQuerySchema = z.object({ asOf: instant.optional() });
export type AuditHistoryQuery = z.infer<typeof auditHistoryQuerySchema>;

/** GET /api/audit/trail: every look, or the looks at one bet. */
export const auditTrailQuerySchema = z.object({ betId: z.uuid().optional() });

export interface AuditParticipant {
  id: string;
  name: string;
  email: string | null;
}

export interface AuditBetSummary {
  id: string;
  title: string;
  status: string;
  createdAt: string;
  creator: AuditParticipant;
  opponent: AuditParticipant | null;
}

/** One event of a bet's stream as stored, with the bet's state right after it. */
export interface AuditHistoryEntry {
  revision: number;
  eventId: string;
  type: string;
  actorId: string | null;
  actorName: string;
  occurredAt: string;
  /** When the log stored the event, to the microsecond (`2026-03-03T14:00:00.000400Z`). */
  recordedAt: string;
  correlationId: string;
  causationId: string | null;
  data: unknown;
  hash: string | null;
  /** The bet as its rules see it once this event is applied (replayed with the bet's `evolve`). */
  stateAfter: Record<string, unknown>;
  /**
   * Why the event cannot be read as stored (its data fails its schema; its metadata is no object
   * or names an actor that is no user id; a sealed value's key id names no key), or null. Such an
   * event leaves `stateAfter` as it was before it.
   */
  readError: string | null;
}

/** The bet as of a moment: what the log had recorded of it by then. */
export interface AuditAsOf {
  /** The moment asked for, or the moment of answering when the one asked for was still to come. */
  at: string;
  /** False when the log had recorded no event of the bet by then: it did not exist yet. */
  existed: boolean;
  /** The bet's state then: the last entry's `stateAfter`, or the state before any event. */
  state: Record<string, unknown>;
  /** How many events the log recorded after that moment, left out of `entries`. */
  laterEvents: number;
}

export interface AuditBetHistory {
  betId: string;
  entries: AuditHistoryEntry[];
  /** Present when the history was asked for as of a moment (`?asOf=`): entries end there. */
  asOf?: AuditAsOf;
}

/** GET /api/audit/bets/{id}/export: the stream as stored, for anyone to check (docs/audit.md). */
export interface AuditExport {
  format: 'wagers-audit-export/1';
  betId: string;
  streamId: string;
  exportedAt: string;
  /** Events up to `throughRevision` predate hash chains; `hash` is their chain when anchored. */
  anchor: { throughRevision: number; hash: string } | null;
  events: {
    revision: number;
    id: string;
    type: string;
    data: unknown;
    metadata: EventMetadata;
    /** When the log stored the event, to the microsecond, exactly as stored. */
    recordedAt: string;
    /**
     * Present when the event holds personal fields in clear whose subject is erased (written
     * before personal data was sealed): each reads `{ "erased": true }` in `data`, so the event's
     * hash cannot be recomputed from the export. `hash` is its link in the chain as stored (its
     * stored hash, or the one computed for an event written before hash chains), for the next
     * link to be checked against.
     */
    redacted?: { fields: string[]; hash: string };
  }[];
}

/** What an erased field stored in clear reads in an export. */
export const ERASED_IN_EXPORT = { erased: true } as const;

export interface AuditTrailEntry {
  eventId: string;
  auditorId: string;
  auditorName: string;
  betId: string;
  view: 'history' | 'export';
  viewedAt: string;
  /** The moment a history was read as of, or null for the whole history (and for an export). */
  asOf: string | null;
}
