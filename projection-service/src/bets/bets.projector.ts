import type { ClientBase } from 'pg';
import { parsePosition } from '@wagers/contracts/position';
import { betStreamEventSchemas, type BetStreamEvent } from '@wagers/contracts/events/bet';
import { schemaReader } from '@wagers/platform/decider';
import type { RecordedEvent } from '@wagers/platform/event-store/port';
import { copyRows } from '@wagers/platform/projections/copy';
import type { Projector } from '@wagers/platform/projections/projector';
import { rowTable } from '@wagers/platform/projections/row-table';
import { evolveBet, type BetFact, type BetState } from './bet-fold.ts';
import { betsSchema } from './bets.schema.ts';

const readBetEvent = schemaReader<BetStreamEvent>(betStreamEventSchemas);

const bets = rowTable('rm_bets', 'id', {
  id: 'uuid',
  seq: 'bigint',
  title: 'text',
  description: 'text',
  wager_type: 'text',
  wager_amount_cents: 'bigint',
  wager_description: 'text',
  end_date: 'date',
  validation_mode: 'text',
  status: 'text',
  creator_id: 'uuid',
  opponent_id: 'uuid',
  invitee: 'text',
  invite_code: 'text',
  creator_resolution: 'text',
  opponent_resolution: 'text',
  winner_id: 'uuid',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  revision: 'bigint',
} satisfies Record<keyof BetState, string>);

const historyColumns = [
  'bet_id',
  'revision',
  'event_id',
  'type',
  'data',
  'actor_id',
  'occurred_at',
] as const;

function toFacts(events: RecordedEvent[]): { fact: BetFact; recorded: RecordedEvent }[] {
  const facts: { fact: BetFact; recorded: RecordedEvent }[] = [];
  for (const recorded of events) {
    if (!recorded.streamId.startsWith('bet-')) continue;
    const event = readBetEvent(recorded);
    if (!event) continue;
    facts.push({
      fact: {
        betId: recorded.streamId.slice('bet-'.length),
        event,
        revision: recorded.revision,
        seq: parsePosition(recorded.position)[1],
        occurredAt: recorded.metadata.occurredAt,
      },
      recorded,
    });
  }
  return facts;
}

/**
 * The stored rows of the bets the page touches. While a new build bulk loads, every event is new
 * to it, so a bet proposed in this page cannot be stored yet and only older bets are looked up.
 */
async function loadStored(
  client: ClientBase,
  facts: { fact: BetFact }[],
  bulk: boolean,
): Promise<Map<string, BetState>> {
  const proposedHere = new Set<string>();
  const ids = new Set<string>();
  for (const { fact } of facts) {
    if (bulk && fact.event.type === 'BetProposed') proposedHere.add(fact.betId);
    else if (!proposedHere.has(fact.betId)) ids.add(fact.betId);
  }
  // The table's text round trip gives back exactly the columns a BetState holds.
  return (await bets.load(client, ids)) as Map<string, BetState>;
}

/**
 * rm_bets (the bet as lists and details show it) and rm_bet_history (every event of every bet,
 * in stream order: its lifecycle, settling up, draws and standing reports). A page is folded in memory and each row written once: new bets and history
 * rows by COPY, bets an earlier page stored by one UPDATE. An event at or below a stored bet's
 * revision was applied before and is left out, so replaying a page changes nothing.
 */
export const betsProjector: Projector = {
  name: 'bets',
  version: 3,
  tables: ['rm_bets', 'rm_bet_history'],
  schema: betsSchema,
  async applyPage(client, events, { bulk }) {
    const facts = toFacts(events);
    if (facts.length === 0) return;
    const stored = await loadStored(client, facts, bulk);
    const folded = new Map(stored);
    const history: (string | null)[][] = [];
    for (const { fact, recorded } of facts) {
      const seen = stored.get(fact.betId);
      if (seen && BigInt(seen.revision) >= fact.revision) continue;
      const after = evolveBet(folded.get(fact.betId), fact);
      if (after) folded.set(fact.betId, after);
      history.push([
        fact.betId,
        fact.revision.toString(),
        recorded.id,
        fact.event.type,
        JSON.stringify(fact.event.data),
        recorded.metadata.actorId,
        fact.occurredAt,
      ]);
    }
    const created: BetState[] = [];
    const changed: BetState[] = [];
    for (const [id, row] of folded) {
      const before = stored.get(id);
      if (!before) created.push(row);
      else if (row !== before) changed.push(row);
    }
    await bets.insert(client, created);
    await bets.update(client, changed);
    await copyRows(client, 'rm_bet_history', historyColumns, history);
  },
};
