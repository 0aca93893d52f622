import type { Pool } from 'pg';
import {
  checkEnd,
  checkLink,
  startOfChain,
  type BrokenLink,
  type ChainAnchor,
  type ChainCheck,
} from './event-hash.ts';
import { storedForm } from './personal-data.ts';
import type { EventStore, RecordedEvent } from './port.ts';

const PAGE = 1000;

export interface ChainReport {
  streams: number;
  events: number;
  /** The first broken link of each stream that has one, in log order of discovery. */
  broken: (BrokenLink & { streamId: string })[];
}

export async function loadAnchors(
  pool: Pool,
  streamId?: string,
): Promise<Map<string, ChainAnchor>> {
  const { rows } = await pool.query<{ stream_id: string; through_revision: string; hash: string }>(
    `SELECT stream_id, through_revision, hash FROM es_chain_anchors
      WHERE $1::text IS NULL OR stream_id = $1`,
    [streamId ?? null],
  );
  return new Map(
    rows.map((row) => [
      row.stream_id,
      { throughRevision: BigInt(row.through_revision), hash: row.hash },
    ]),
  );
}

/** Folds events of any streams, each in revision order, into per-stream chain checks. */
class Verifier {
  private readonly checks = new Map<string, ChainCheck>();
  private readonly found: ChainReport['broken'] = [];
  private count = 0;

  constructor(private readonly anchors: Map<string, ChainAnchor>) {}

  add(event: RecordedEvent): void {
    const before = this.checks.get(event.streamId) ?? startOfChain();
    const after = checkLink(before, event, this.anchors.get(event.streamId) ?? null);
    if (after.broken && !before.broken)
      this.found.push({ ...after.broken, streamId: event.streamId });
    this.checks.set(event.streamId, after);
    this.count++;
  }

  /**
   * The report, once every event went through `add`. An anchored stream must still reach the
   * revision it was anchored through: one that ends before it, or has no event left at all (the
   * anchor proves it had some), lost its last events.
   */
  report(): ChainReport {
    const broken = [...this.found];
    let streams = this.checks.size;
    for (const [streamId, anchor] of this.anchors) {
      const check = this.checks.get(streamId);
      if (!check) streams++;
      const end = checkEnd(check ?? startOfChain(), anchor);
      if (end && !check?.broken) broken.push({ ...end, streamId });
    }
    return { streams, events: this.count, broken };
  }
}

/** Recomputes one stream's chain from what is stored. */
export async function verifyStream(
  store: EventStore,
  pool: Pool,
  streamId: string,
): Promise<ChainReport> {
  const verifier = new Verifier(await loadAnchors(pool, streamId));
  for (const event of await storedForm(store).readStream(streamId)) verifier.add(event);
  return verifier.report();
}

/** Told after each page of a pass over the whole log how many events it has read so far. */
export type OnLogPage = (progress: { events: number }) => void;

/** Recomputes the chain of every stream in the log, a page of the global log at a time. */
export async function verifyLog(
  store: EventStore,
  pool: Pool,
  onPage?: OnLogPage,
): Promise<ChainReport> {
  const verifier = new Verifier(await loadAnchors(pool));
  let events = 0;
  for (let after = null; ;) {
    const page = await storedForm(store).readAll({ after, maxCount: PAGE });
    if (page.length === 0) return verifier.report();
    for (const event of page) verifier.add(event);
    events += page.length;
    onPage?.({ events });
    after = page[page.length - 1]!.position;
  }
}
