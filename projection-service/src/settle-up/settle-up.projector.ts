import type { Projector } from '@wagers/platform/projections/projector';
import { rowTable, type TextRow } from '@wagers/platform/projections/row-table';
import { betRowPages, type BetStreamFact, changeBetRow } from '../bet-stream.ts';
import { settleUpSchema } from './settle-up.schema.ts';

const columns = {
  bet_id: 'uuid',
  title: 'text',
  amount_cents: 'bigint',
  creator_id: 'uuid',
  opponent_id: 'uuid',
  winner_id: 'uuid',
  loser_id: 'uuid',
  payment_status: 'text',
  updated_at: 'timestamptz',
  revision: 'bigint',
};
const settleUp = rowTable('rm_settle_up', 'bet_id', columns);
type Row = TextRow<keyof typeof columns>;

/** Column changes one event makes to a money bet's row (besides updated_at and revision). */
function changes(row: Row, { event }: BetStreamFact): Partial<Row> | null {
  switch (event.type) {
    case 'BetAccepted':
    case 'BetInviteAccepted':
      return { opponent_id: event.data.opponentId };
    case 'BetCompleted': {
      // The loser is whichever participant did not win; a draw owes nothing.
      const winner = event.data.winnerId;
      if (winner === null) return null;
      const creatorWon = row.creator_id === winner.toLowerCase();
      return { winner_id: winner, loser_id: creatorWon ? row.opponent_id : row.creator_id };
    }
    case 'BetMarkedPaid':
      return { payment_status: 'marked_paid' };
    case 'BetPaymentConfirmed':
      return { payment_status: 'confirmed' };
    case 'BetPaymentNotReceived':
      return { payment_status: 'unpaid' };
    default:
      return null;
  }
}

/** A money bet's row after one more event of its stream; null once declined or deleted. */
export function evolveSettleUp(row: Row | undefined, fact: BetStreamFact): Row | null | undefined {
  const { event } = fact;
  if (event.type === 'BetProposed') {
    const data = event.data;
    if (row || data.wagerType !== 'money' || !data.wagerAmountCents) return row;
    return {
      bet_id: fact.betId,
      title: data.title,
      amount_cents: String(data.wagerAmountCents),
      creator_id: data.creatorId,
      opponent_id: data.opponentId,
      winner_id: null,
      loser_id: null,
      payment_status: 'unpaid',
      updated_at: fact.occurredAt,
      revision: fact.revision.toString(),
    };
  }
  if (event.type === 'BetDeclined' || event.type === 'BetDeleted') return null;
  const change = row && changes(row, fact);
  if (!change) return row;
  return changeBetRow(row, fact, { ...change, updated_at: fact.occurredAt });
}

/**
 * rm_settle_up: money bets and who owes whom once they complete. A page is folded in memory and
 * each bet's row written once; rows key on the stream revision, so a replayed event changes
 * nothing.
 */
export const settleUpProjector: Projector = {
  name: 'settle-up',
  version: 1,
  schema: settleUpSchema,
  tables: ['rm_settle_up'],
  applyPage: betRowPages(settleUp, evolveSettleUp),
};
