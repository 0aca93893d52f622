import { createHash } from 'node:crypto';
import type { EventMetadata } from '@wagers/contracts/events/envelope';
import { canonicalJson } from './canonical-json.ts';

/** What a link of the chain covers: the event as stored, less its own hash. */
export interface HashedContent {
  id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

/**
 * SHA-256 (hex) over the canonical JSON of the event's id, type, data and metadata (without its
 * `hash`) and the previous event's hash in the stream (null for the first event).
 */
export function eventHash(event: HashedContent, previousHash: string | null): string {
  // Metadata edited into something else than an object (null, a number) is hashed as it is: the
  // hash then differs from any the writer stored, and the link is reported broken.
  const stored: unknown = event.metadata;
  const metadata = isMetadataObject(stored) ? withoutHash(stored) : stored;
  const content = canonicalJson({
    id: event.id,
    type: event.type,
    data: event.data,
    metadata,
    previousHash,
  });
  return createHash('sha256').update(content, 'utf8').digest('hex');
}

/** Whether stored metadata is an object, as the writer always stores it (an edit may make it not). */
export function isMetadataObject(metadata: unknown): metadata is Record<string, unknown> {
  return typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata);
}

function withoutHash(metadata: Record<string, unknown>): Record<string, unknown> {
  const { hash: _own, ...rest } = metadata;
  return rest;
}

/** The hash stored with an event, or undefined when it has none (or no metadata object at all). */
export function storedHash(event: HashedContent): string | undefined {
  const metadata: unknown = event.metadata;
  if (!isMetadataObject(metadata) || metadata.hash === undefined) return undefined;
  return typeof metadata.hash === 'string' ? metadata.hash : JSON.stringify(metadata.hash);
}

/**
 * The hash of the last of `events` (a stream read from its start): the stored hash of each event
 * that has one, the computed one for events written before hash chains.
 */
export function chainHead(events: readonly HashedContent[]): string | null {
  let previous: string | null = null;
  for (const event of events) previous = storedHash(event) ?? eventHash(event, previous);
  return previous;
}

export interface BrokenLink {
  revision: bigint;
  /** The event found at `revision`; null when the stream ends before it (events deleted). */
  eventId: string | null;
  reason: 'hash_mismatch' | 'anchor_mismatch' | 'missing_hash' | 'missing_event';
  /** The hash recomputed for the event; for a missing event, the revision that should follow. */
  expected: string;
  /**
   * The hash stored with the event; for a missing event, the revision found instead, or null when
   * the stream ends before it.
   */
  found: string | null;
}

export interface ChainAnchor {
  /** Last revision written before hash chains. */
  throughRevision: bigint;
  /** The computed hash of that event when the chain was anchored. */
  hash: string;
}

/**
 * Where a stream's recomputed chain stands: the last link's hash, the revision the next event
 * must have, and the first broken link.
 */
export interface ChainCheck {
  previous: string | null;
  next: bigint;
  broken: BrokenLink | null;
}

export const startOfChain = (): ChainCheck => ({ previous: null, next: 0n, broken: null });

/**
 * Checks the next event of a stream (in revision order) against the chain so far. Events up to
 * `anchor` carry no hash: their computed chain must end in the anchored hash. Every later event
 * (every event, without an anchor) must carry the hash recomputed for it.
 */
export function checkLink(
  check: ChainCheck,
  event: HashedContent & { revision: bigint },
  anchor: ChainAnchor | null,
): ChainCheck {
  if (check.broken) return check;
  const expected = eventHash(event, check.previous);
  const stored = storedHash(event);
  const next = event.revision + 1n;
  // A deleted event leaves a gap in the revisions: name it, rather than the hash it then breaks.
  if (event.revision !== check.next) {
    const gap = link(
      event,
      'missing_event',
      `revision ${check.next}`,
      `revision ${event.revision}`,
    );
    return { previous: expected, next, broken: gap };
  }
  let broken: BrokenLink | null = null;
  if (anchor !== null && event.revision <= anchor.throughRevision) {
    if (event.revision === anchor.throughRevision && expected !== anchor.hash) {
      broken = link(event, 'anchor_mismatch', anchor.hash, expected);
    }
    return { previous: expected, next, broken };
  }
  // Metadata that is no object was edited: no writer stores it, whatever hash it lacks.
  if (!isMetadataObject(event.metadata)) broken = link(event, 'hash_mismatch', expected, null);
  else if (stored === undefined) broken = link(event, 'missing_hash', expected, null);
  else if (stored !== expected) broken = link(event, 'hash_mismatch', expected, stored);
  return { previous: stored ?? expected, next, broken };
}

/**
 * Checks where a stream ends, once all its events went through `checkLink`: a stream anchored
 * through a revision it no longer reaches lost its last events (or all of them), and the first
 * missing revision is reported. A stream without an anchor can end anywhere: nothing records
 * how long it was.
 */
export function checkEnd(check: ChainCheck, anchor: ChainAnchor | null): BrokenLink | null {
  if (check.broken) return check.broken;
  if (anchor === null || check.next > anchor.throughRevision) return null;
  return {
    revision: check.next,
    eventId: null,
    reason: 'missing_event',
    expected: `revision ${check.next}`,
    found: null,
  };
}

/** Recomputes a stream's chain from its first event; the first link that does not hold, or null. */
export function verifyChain(
  events: readonly (HashedContent & { revision: bigint })[],
  anchor: ChainAnchor | null,
): BrokenLink | null {
  const check = events.reduce((so, event) => checkLink(so, event, anchor), startOfChain());
  return checkEnd(check, anchor);
}

function link(
  event: HashedContent & { revision: bigint },
  reason: BrokenLink['reason'],
  expected: string,
  found: string | null,
): BrokenLink {
  return { revision: event.revision, eventId: event.id, reason, expected, found };
}
