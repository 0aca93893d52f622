import type { ClientBase } from 'pg';
import { parsePosition } from '@wagers/contracts/position';
import { betEventSchemas, type BetEvent } from '@wagers/contracts/events/bet';
import { schemaReader } from '@wagers/platform/decider';
import type { RecordedEvent } from '@wagers/platform/event-store/port';
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

const upsertBets = `INSERT INTO rm_bets (${betStateColumns.join(', ')})
  SELECT * FROM unnest(${betStateColumns.map((c, i) => `$${i + 1}::${columnTypes[c]}[]`).join(', ')})
  ON CONFLICT (id) DO UPDATE SET ${betStateColumns
    .filter((c) => c !== 'id' && c !== 'seq')
    .map((c) => `${c} = EXCLUDED.${c}`)
    .join(', ')}`;

const loadBets = `SELECT ${betStateColumns
  .map((c) => (columnTypes[c] === 'text' || c === 'id' ? c : `${c}::text`))
  .join(', ')} FROM rm_bets WHERE id = ANY($1::uuid[])`;

const historyColumns = 'bet_id, revision, event_id, type, data, actor_id, occurred_at';
const insertHistory = `INSERT INTO rm_bet_history (${historyColumns})
  SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::uuid[], $4::text[], $5::jsonb[], $6::uuid[], $7::timestamptz[])`;

function toFacts(events: RecordedEvent[]): { facts: BetFact[]; recorded: RecordedEvent[] } {
  const facts: BetFact[] = [];
  const recorded: RecordedEvent[] = [];
  for (const event of events) {
    if (!event.streamId.startsWith('bet-')) continue;
    const bet = readBetEvent(event);
    if (!bet) continue;
    facts.push({
      betId: event.streamId.slice('bet-'.length),
      event: bet,
      revision: event.revision,
      seq: parsePosition(event.position)[1],
      occurredAt: event.metadata.occurredAt,
    });
    recorded.push(event);
  }
  return { facts, recorded };
}

/** Rows of the bets a page touches that an earlier page proposed. */
async function loadEarlier(client: ClientBase, facts: BetFact[]): Promise<Map<string, BetState>> {
  const proposedHere = new Set<string>();
  const wanted = new Set<string>();
  for (const fact of facts) {
    if (fact.event.type === 'BetProposed') proposedHere.add(fact.betId);
    else if (!proposedHere.has(fact.betId)) wanted.add(fact.betId);
  }
  // A replayed proposal may meet its row too: the fold must keep the stored one.
  for (const id of proposedHere) wanted.add(id);
  if (wanted.size === 0) return new Map();
  const result = await client.query<BetState>(loadBets, [[...wanted]]);
  return new Map(result.rows.map((row) => [row.id, row]));
}

/**
 * rm_bets (the bet as lists and details show it) and rm_bet_history (every event of every bet,
 * in stream order). A page is folded in memory and written in two statements: each touched bet
 * once, and its new history rows. Both key on the stream revision, so replaying changes nothing.
 */
export const betsProjector: Projector = {
  name: 'bets',
  version: 2,
  tables: ['rm_bets', 'rm_bet_history'],
  schema: betsSchema,
  async applyPage(client, events, { bulk }) {
    const { facts, recorded } = toFacts(events);
    if (facts.length === 0) return;
    const bets = await loadEarlier(client, facts);
    const dirty = new Set<string>();
    for (const fact of facts) {
      const before = bets.get(fact.betId);
      const after = evolveBet(before, fact);
      if (after && after !== before) {
        bets.set(fact.betId, after);
        dirty.add(fact.betId);
      }
    }
    if (dirty.size > 0) {
      const rows = [...dirty].map((id) => bets.get(id)!);
      await client.query(
        upsertBets,
        betStateColumns.map((column) => rows.map((row) => row[column])),
      );
    }
    await client.query(
      // While bulk loading, the history has no key yet and no row of the page exists already.
      bulk ? insertHistory : `${insertHistory} ON CONFLICT (bet_id, revision) DO NOTHING`,
      [
        recorded.map((e) => e.streamId.slice('bet-'.length)),
        recorded.map((e) => e.revision.toString()),
        recorded.map((e) => e.id),
        facts.map((f) => f.event.type),
        facts.map((f) => JSON.stringify(f.event.data)),
        recorded.map((e) => e.metadata.actorId),
        recorded.map((e) => e.metadata.occurredAt),
      ],
    );
  },
};
