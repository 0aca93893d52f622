import type { Pool } from 'pg';
import type { OnLogPage } from './chain-verifier.ts';
import { eventHash, storedHash } from './event-hash.ts';
import { storedForm } from './personal-data.ts';
import type { EventStore } from './port.ts';

const PAGE = 1000;

/**
 * The one-time step for events written before hash chains: for every stream that starts with
 * such events, records the revision of the last one and their computed chain in es_chain_anchors.
 * The events are not touched. Run once every writer appends hashed events; running it again
 * anchors nothing new. Returns how many streams it anchored.
 */
export async function anchorLegacyStreams(
  store: EventStore,
  pool: Pool,
  onPage?: OnLogPage,
): Promise<number> {
  // Per stream: the chain of its unhashed events so far; `closed` once a hashed event follows.
  const legacy = new Map<string, { revision: bigint; hash: string | null; closed: boolean }>();
  let events = 0;
  for (let after = null; ;) {
    const page = await storedForm(store).readAll({ after, maxCount: PAGE });
    if (page.length === 0) break;
    events += page.length;
    onPage?.({ events });
    for (const event of page) {
      const chain = legacy.get(event.streamId) ?? { revision: -1n, hash: null, closed: false };
      if (chain.closed) continue;
      if (storedHash(event) !== undefined) chain.closed = true;
      else {
        chain.hash = eventHash(event, chain.hash);
        chain.revision = event.revision;
      }
      legacy.set(event.streamId, chain);
    }
    after = page[page.length - 1]!.position;
  }
  let anchored = 0;
  for (const [streamId, chain] of legacy) {
    if (chain.hash === null) continue;
    const { rowCount } = await pool.query(
      `INSERT INTO es_chain_anchors (stream_id, through_revision, hash) VALUES ($1, $2, $3)
       ON CONFLICT (stream_id) DO NOTHING`,
      [streamId, chain.revision.toString(), chain.hash],
    );
    anchored += rowCount ?? 0;
  }
  return anchored;
}
