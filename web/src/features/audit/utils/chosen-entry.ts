import type { AuditHistoryEntry } from '@wagers/contracts/api/audit';

/**
 * The entry whose state the page shows: the one with the revision the auditor chose, or the last
 * one when none was chosen (or the chosen one is not listed, as after a cut to a moment). Entries
 * are found by revision, never by place in the list: a stream with a deleted event has a gap in
 * its revisions, and #5 is then not the fifth entry.
 */
export function chosenEntry(
  entries: readonly AuditHistoryEntry[],
  revision: number | null,
): AuditHistoryEntry | undefined {
  const chosen =
    revision === null ? undefined : entries.find((entry) => entry.revision === revision);
  return chosen ?? entries.at(-1);
}
