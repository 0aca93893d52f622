import type { ClientBase } from 'pg';
import { parsePosition } from '@wagers/contracts/position';
import { betEventSchemas, type BetEvent } from '@wagers/contracts/events/bet';
import { schemaReader } from '@wagers/platform/decider';
import type { RecordedEvent } from '@wagers/platform/event-store/port';
import { copyRows } from '@wagers/platform/projections/copy';
import type { Projector } from '@wagers/platform/projections/projector';
import { betStateColumns, evolveBet, type BetFact, type BetState } from './bet-fold.ts';
import { betsSchema } from './bets.schema.ts';

const readBetEvent = schemaReader<BetEvent>(betEventSchemas);

const columnTypes: Record<(typeof betStateColumns)[number], string> = {
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
};

/** Bets an earlier page stored and this one changed: few, so one JSON document carries them. */
const updateBets = `UPDATE rm_bets AS b SET ${betStateColumns
  .filter((c) => c !== 'id' && c !== 'seq')
  .map((c) => `${c} = r.${c}`)
  .join(', ')}
  FROM json_to_recordset($1::json) AS r(${betStateColumns.map((c) => `${c} ${columnTypes[c]}`).join(', ')})
  WHERE b.id = r.id`;

const loadBets = `SELECT ${betStateColumns
  .map((c) => (columnTypes[c] === 'text' || c === 'id' ? c : `${c}::text`))
  .join(', ')} FROM rm_bets WHERE id = ANY($1::uuid[])`;

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

/** The stored rows of every bet the page touches. */
async function loadStored(
  client: ClientBase,
  facts: { fact: BetFact }[],
): Promise<Map<string, BetState>> {
  const ids = [...new Set(facts.map(({ fact }) => fact.betId))];
  const result = await client.query<BetState>(loadBets, [ids]);
  return new Map(result.rows.map((row) => [row.id, row]));
}

/**
 * rm_bets (the bet as lists and details show it) and rm_bet_history (every event of every bet,
 * in stream order). A page is folded in memory and each row written once: new bets and history
 * rows by COPY, bets an earlier page stored by one UPDATE. An event at or below a stored bet's
 * revision was applied before and is left out, so replaying a page changes nothing.
 */
export const betsProjector: Projector = {
  name: 'bets',
  version: 2,
  tables: ['rm_bets', 'rm_bet_history'],
  schema: betsSchema,
  async applyPage(client, events) {
    const facts = toFacts(events);
    if (facts.length === 0) return;
    const stored = await loadStored(client, facts);
    const bets = new Map(stored);
    const history: (string | null)[][] = [];
    for (const { fact, recorded } of facts) {
      const seen = stored.get(fact.betId);
      if (seen && BigInt(seen.revision) >= fact.revision) continue;
      const after = evolveBet(bets.get(fact.betId), fact);
      if (after) bets.set(fact.betId, after);
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
    for (const [id, row] of bets) {
      const before = stored.get(id);
      if (!before) created.push(row);
      else if (row !== before) changed.push(row);
    }
    await copyRows(
      client,
      'rm_bets',
      betStateColumns,
      created.map((row) => betStateColumns.map((column) => row[column])),
    );
    if (changed.length > 0) await client.query(updateBets, [JSON.stringify(changed)]);
    await copyRows(client, 'rm_bet_history', historyColumns, history);
  },
};
