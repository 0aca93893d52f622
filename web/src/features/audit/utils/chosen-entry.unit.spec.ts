import { describe, expect, it } from 'vitest';
import type { AuditHistoryEntry } from '@wagers/contracts/api/audit';
import { chosenEntry } from './chosen-entry.ts';

const entry = (revision: number): AuditHistoryEntry => ({
  revision,
  eventId: `event-${revision}`,
  type: 'BetAccepted',
  actorId: null,
  actorName: 'Wagers',
  occurredAt: '2026-03-03T14:00:00.000Z',
  recordedAt: '2026-03-03T14:00:00.000Z',
  correlationId: 'c',
  causationId: null,
  data: {},
  hash: null,
  stateAfter: { step: revision },
  readError: null,
});

describe('the entry whose state the audit page shows', () => {
  it('is the one with the revision chosen, even after a gap left by a deleted event', () => {
    // Revision 3 was deleted in the database: #5 is the fifth entry, not the sixth.
    const entries = [0, 1, 2, 4, 5, 6].map(entry);
    expect(chosenEntry(entries, 5)?.stateAfter).toEqual({ step: 5 });
    expect(chosenEntry(entries, 4)?.stateAfter).toEqual({ step: 4 });
    expect(chosenEntry(entries, 0)?.stateAfter).toEqual({ step: 0 });
  });

  it('is the last one when none is chosen, or the one chosen is not listed', () => {
    const entries = [0, 1, 2].map(entry);
    expect(chosenEntry(entries, null)?.revision).toBe(2);
    expect(chosenEntry(entries, 6)?.revision).toBe(2);
    expect(chosenEntry([], null)).toBeUndefined();
  });
});
