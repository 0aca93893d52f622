import { betStreamEventSchemas, type BetStreamEvent } from '@wagers/contracts/events/bet';
import { schemaReader } from '@wagers/platform/decider';
import type { RecordedEvent } from '@wagers/platform/event-store/port';
import type { Projector } from '@wagers/platform/projections/projector';
import {
  foldRows,
  type RowStart,
  type RowTable,
  type TextRow,
} from '@wagers/platform/projections/row-table';

const readBetStreamEvent = schemaReader<BetStreamEvent>(betStreamEventSchemas);

/** An event of a bet stream as the bet projectors use it; null for any other stream or type. */
export function betStreamEvent(
  recorded: RecordedEvent,
): { betId: string; revision: string; event: BetStreamEvent } | null {
  if (!recorded.streamId.startsWith('bet-')) return null;
  const event = readBetStreamEvent(recorded);
  if (!event) return null;
  return {
    betId: recorded.streamId.slice('bet-'.length),
    revision: recorded.revision.toString(),
    event,
  };
}

/** An event of a bet stream as a row-per-bet projector folds it. */
export interface BetStreamFact {
  betId: string;
  revision: bigint;
  event: BetStreamEvent;
  occurredAt: string;
}

/** A bet's row starts at its proposal, its stream's first event; rows keep their revision. */
export const startsAtProposal: RowStart<BetStreamFact, 'revision'> = {
  startsRow: (fact) => fact.event.type === 'BetProposed',
  newer: 'revision',
};

/** The page's bet-stream events, for `foldRows` keyed by bet. */
export function betStreamFacts(events: RecordedEvent[]): BetStreamFact[] {
  const facts: BetStreamFact[] = [];
  for (const recorded of events) {
    const bet = betStreamEvent(recorded);
    if (bet) {
      facts.push({
        betId: bet.betId,
        revision: recorded.revision,
        event: bet.event,
        occurredAt: recorded.metadata.occurredAt,
      });
    }
  }
  return facts;
}

/**
 * A bet's row after an event that changes `change`, unless the row already reflects the event's
 * revision (or there is no row), so a replayed event changes nothing.
 */
export function changeBetRow<Row extends { revision: string | null }>(
  row: Row | undefined,
  fact: { revision: bigint },
  change: Partial<Row>,
): Row | undefined {
  if (!row || BigInt(row.revision!) >= fact.revision) return row;
  return { ...row, ...change, revision: fact.revision.toString() };
}

/**
 * The `applyPage` of a projector with one row per bet in `table`: the page's bet-stream events
 * folded by `evolve` onto each bet's row, which starts at the bet's proposal.
 */
export function betRowPages<Column extends string>(
  table: RowTable<Column | 'revision'>,
  evolve: (
    row: TextRow<Column | 'revision'> | undefined,
    fact: BetStreamFact,
  ) => TextRow<Column | 'revision'> | null | undefined,
): NonNullable<Projector['applyPage']> {
  return (client, events, { atCommit }) =>
    foldRows(
      client,
      table,
      betStreamFacts(events),
      (fact) => fact.betId,
      evolve,
      atCommit,
      startsAtProposal,
    );
}
