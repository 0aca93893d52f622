import type { Projector } from '@wagers/platform/projections/projector';
import { rowTable, type TextRow } from '@wagers/platform/projections/row-table';
import { betRowPages, type BetStreamFact, changeBetRow } from '../bet-stream.ts';
import { headToHeadSchema } from './head-to-head.schema.ts';

const columns = {
  bet_id: 'uuid',
  creator_id: 'uuid',
  opponent_id: 'uuid',
  amount_cents: 'bigint',
  completed: 'boolean',
  winner_id: 'uuid',
  revision: 'bigint',
};
const headToHead = rowTable('rm_head_to_head', 'bet_id', columns);
type Row = TextRow<keyof typeof columns>;

/** A bet's row after one more event of its stream; null once the bet is declined or deleted. */
export function evolveHeadToHead(
  row: Row | undefined,
  fact: BetStreamFact,
): Row | null | undefined {
  const { event } = fact;
  switch (event.type) {
    case 'BetProposed': {
      const data = event.data;
      return (
        row ?? {
          bet_id: fact.betId,
          creator_id: data.creatorId,
          opponent_id: data.opponentId,
          amount_cents:
            data.wagerType === 'money' && data.wagerAmountCents !== null
              ? String(data.wagerAmountCents)
              : null,
          completed: 'false',
          winner_id: null,
          revision: fact.revision.toString(),
        }
      );
    }
    case 'BetAccepted':
    case 'BetInviteAccepted':
      return changeBetRow(row, fact, { opponent_id: event.data.opponentId });
    case 'BetCompleted':
      return changeBetRow(row, fact, { completed: 'true', winner_id: event.data.winnerId });
    case 'BetDeclined':
    case 'BetDeleted':
      return null;
    default:
      return row;
  }
}

/**
 * rm_head_to_head: who bet against whom and who won, for each pair's record. A page is folded in
 * memory and each bet's row written once; rows key on the stream revision, so a replayed event
 * changes nothing.
 */
export const headToHeadProjector: Projector = {
  name: 'head-to-head',
  version: 1,
  schema: headToHeadSchema,
  tables: ['rm_head_to_head'],
  applyPage: betRowPages(headToHead, evolveHeadToHead),
};
