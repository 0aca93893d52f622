import type { ClientBase } from 'pg';
import { betStreamEventSchemas, type BetStreamEvent } from '@wagers/contracts/events/bet';
import { schemaReader } from '@wagers/platform/decider';
import type { RecordedEvent } from '@wagers/platform/event-store/port';
import { setImmediate as pause } from 'node:timers/promises';
import {
  CopyLines,
  copyField,
  copyIn,
  copyJson,
  quoteLiteral,
} from '@wagers/platform/projections/copy';
import { copiedColumns } from '@wagers/platform/event-store/copied-event';
import type { BulkLoader, Projector } from '@wagers/platform/projections/projector';
import { keysToRead, rowTable } from '@wagers/platform/projections/row-table';
import { evolveBet, type BetFact, type BetState } from './bet-fold.ts';
import { betColumns, betsSchema } from './bets.schema.ts';

const readBetEvent = schemaReader<BetStreamEvent>(betStreamEventSchemas);

const bets = rowTable('rm_bets', 'id', betColumns satisfies Record<keyof BetState, string>);

const historyColumns = [
  'bet_id',
  'revision',
  'event_id',
  'type',
  'data',
  'actor_id',
  'occurred_at',
] as const;

interface BetPageFact {
  fact: BetFact;
  recorded: RecordedEvent;
}

/** The minor part of a position, "major-minor" as the store wrote it (parsePosition's check is spared). */
const seqOf = (position: string) => BigInt(position.slice(position.indexOf('-') + 1));

function toFact(recorded: RecordedEvent): BetPageFact | null {
  if (!recorded.streamId.startsWith('bet-')) return null;
  const event = readBetEvent(recorded);
  if (!event) return null;
  return {
    fact: {
      betId: recorded.streamId.slice('bet-'.length),
      event,
      revision: recorded.revision,
      seq: seqOf(recorded.position),
      occurredAt: recorded.metadata.occurredAt,
    },
    recorded,
  };
}

function toFacts(events: RecordedEvent[]): BetPageFact[] {
  const facts: BetPageFact[] = [];
  for (const recorded of events) {
    const fact = toFact(recorded);
    if (fact) facts.push(fact);
  }
  return facts;
}

/**
 * The stored rows of the bets the page touches, less those it proposes: a page that holds a
 * bet's proposal folds the whole bet from its start. While a new build bulk loads, such a bet
 * cannot be stored yet. Live, it can be, when the page is applied again: its row is then written
 * only where it is older than the fold (`upsertStatement`), and its history rows only where
 * missing.
 */
async function loadStored(
  client: ClientBase,
  facts: BetPageFact[],
): Promise<Map<string, BetState>> {
  const { toRead } = keysToRead(
    facts,
    ({ fact }) => fact.betId,
    ({ fact }) => fact.event.type === 'BetProposed',
  );
  return load(client, toRead);
}

async function load(client: ClientBase, ids: Iterable<string>): Promise<Map<string, BetState>> {
  // The table's text round trip gives back exactly the columns a BetState holds.
  return (await bets.load(client, ids)) as Map<string, BetState>;
}

/**
 * Folds facts, in log order, onto the rows they start from (`stored`: the bets they touch that
 * are stored already), and gathers what to write: new and changed rows, history rows as COPY
 * text. An event at or below a stored bet's revision was applied before and is left out.
 */
class BetFold {
  /** Every bet folded so far, as it leaves them (new, changed or as stored). */
  readonly rows: Map<string, BetState>;
  readonly history = new CopyLines();
  /** The history rows, kept as records instead when the page writes them as a statement. */
  readonly historyRows: HistoryRow[] = [];

  constructor(
    private readonly stored: Map<string, BetState>,
    private readonly historyAsRows = false,
  ) {
    this.rows = new Map(stored);
  }

  add({ fact, recorded }: BetPageFact): void {
    const seen = this.stored.get(fact.betId);
    if (seen && BigInt(seen.revision) >= fact.revision) return;
    const after = evolveBet(this.rows.get(fact.betId), fact);
    if (after) this.rows.set(fact.betId, after);
    if (!this.historyAsRows) {
      this.history.add(historyLine(fact, recorded));
      return;
    }
    this.historyRows.push({
      bet_id: fact.betId,
      revision: fact.revision.toString(),
      event_id: recorded.id,
      type: fact.event.type,
      data: fact.event.data,
      actor_id: recorded.metadata.actorId,
      occurred_at: fact.occurredAt,
    });
  }

  /** Rows to insert and rows to update. */
  writes(): { created: BetState[]; changed: BetState[] } {
    const created: BetState[] = [];
    const changed: BetState[] = [];
    for (const [id, row] of this.rows) {
      const before = this.stored.get(id);
      if (!before) created.push(row);
      else if (row !== before) changed.push(row);
    }
    return { created, changed };
  }
}

/** A row of rm_bet_history as the page makes it; `data` is the event's, as a value. */
type HistoryRow = Record<Exclude<(typeof historyColumns)[number], 'data' | 'actor_id'>, string> & {
  data: unknown;
  actor_id: string | null;
};

/**
 * A history row as a line of COPY text, in `historyColumns` order. Its first five columns are the
 * event's stream id (less "bet-"), revision, id, type and data, as the bulk read found them in
 * the log's COPY text when the event's schema took its data as it was; else each made here.
 */
function historyLine(fact: BetFact, recorded: RecordedEvent): string {
  const event =
    copiedColumns(recorded, fact.event.data, 'bet-'.length) ??
    `${copyField(fact.betId)}\t${fact.revision}\t${copyField(recorded.id)}\t${copyField(fact.event.type)}\t${copyJson(JSON.stringify(fact.event.data))}`;
  return `${event}\t${copyField(recorded.metadata.actorId)}\t${copyField(fact.occurredAt)}\n`;
}

/**
 * History rows as one statement (`ApplyContext.atCommit`): a JSON document, typed per column. A
 * row already stored (a page applied again) is left as it is: an event's row never changes.
 */
function historyStatement(rows: HistoryRow[]): string {
  return `INSERT INTO rm_bet_history (${historyColumns.join(', ')})
    SELECT ${historyColumns.map((c) => `r.${c}`).join(', ')}
    FROM json_to_recordset(${quoteLiteral(JSON.stringify(rows))}::json)
      AS r(bet_id uuid, revision bigint, event_id uuid, type text, data json, actor_id uuid,
           occurred_at timestamptz)
    ON CONFLICT (bet_id, revision) DO NOTHING`;
}

function foldBets(
  facts: BetPageFact[],
  stored: Map<string, BetState>,
  historyAsRows = false,
): BetFold {
  const fold = new BetFold(stored, historyAsRows);
  for (const fact of facts) fold.add(fact);
  return fold;
}

/** Events a bulk load's fold handles before it lets other work run (a write's next statement). */
const SLICE = 500;

/** Pages of a bulk load whose rows a later page starts from without reading them back. */
const REMEMBERED_PAGES = 4;

/**
 * The bulk load's fold: a page is folded while the page before it is still being written. A bet
 * the page proposes, or one a recent page wrote (remembered in memory), is folded there and then;
 * the events of an older bet wait for the write, which reads its stored row first (the pages
 * before are committed by then). Rows that write folds are not remembered, so a later page reads
 * them back too.
 */
function betsBulkLoader(): BulkLoader {
  const remembered: Map<string, BetState>[] = [];
  const recall = (id: string) => {
    for (let i = remembered.length - 1; i >= 0; i--) {
      const row = remembered[i]!.get(id);
      if (row) return row;
    }
    return undefined;
  };
  return {
    async fold(events) {
      const known = new Map<string, BetState>();
      const fold = new BetFold(known);
      const older = new Set<string>();
      const later: BetPageFact[] = [];
      for (let i = 0; i < events.length; i++) {
        if (i > 0 && i % SLICE === 0) await pause();
        const item = toFact(events[i]!);
        if (!item) continue;
        const id = item.fact.betId;
        if (older.has(id)) {
          later.push(item);
          continue;
        }
        if (!fold.rows.has(id)) {
          const row = recall(id);
          if (row) {
            known.set(id, row);
            fold.rows.set(id, row);
          } else if (item.fact.event.type !== 'BetProposed') {
            older.add(id);
            later.push(item);
            continue;
          }
        }
        fold.add(item);
      }
      remembered.push(fold.rows);
      if (remembered.length > REMEMBERED_PAGES) remembered.shift();
      const { created, changed } = fold.writes();
      const rows = [Buffer.from(bets.text(created))];
      return async (client) => {
        let [newRows, changedRows, history] = [rows, changed, fold.history.buffers()];
        if (later.length > 0) {
          const rest = foldBets(later, await load(client, older));
          const writes = rest.writes();
          newRows = [...newRows, Buffer.from(bets.text(writes.created))];
          changedRows = [...changedRows, ...writes.changed];
          history = [...history, ...rest.history.buffers()];
        }
        await bets.copy(client, newRows);
        await bets.update(client, changedRows);
        await copyIn(client, 'rm_bet_history', historyColumns, history);
      };
    },
  };
}

/**
 * rm_bets (the bet as lists and details show it) and rm_bet_history (every event of every bet,
 * in stream order: its lifecycle, settling up, draws and standing reports). A page is folded in
 * memory and each row written once: new bets and history rows by COPY (by one statement each,
 * live), bets an earlier page stored by one UPDATE. An event at or below a stored bet's revision
 * was applied before and is left out, and a bet the page proposes is written only over an older
 * row, so replaying a page changes nothing.
 */
export const betsProjector: Projector = {
  name: 'bets',
  version: 6,
  tables: ['rm_bets', 'rm_bet_history'],
  schema: betsSchema,
  async applyPage(client, events, { atCommit }) {
    const facts = toFacts(events);
    if (facts.length === 0) return;
    const fold = foldBets(facts, await loadStored(client, facts), atCommit !== undefined);
    const { created, changed } = fold.writes();
    if (atCommit) {
      // A live page: its writes go with the checkpoint, in the page's last round trip (its only
      // one when every bet it touches is proposed in it).
      if (created.length > 0) atCommit(bets.upsertStatement(created, 'revision'));
      if (changed.length > 0) atCommit(bets.updateStatement(changed));
      if (fold.historyRows.length > 0) atCommit(historyStatement(fold.historyRows));
      return;
    }
    await bets.insert(client, created);
    await bets.update(client, changed);
    await copyIn(client, 'rm_bet_history', historyColumns, fold.history.buffers());
  },
  bulkLoader: betsBulkLoader,
};
