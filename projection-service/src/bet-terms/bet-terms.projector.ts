import type { Projector } from '@wagers/platform/projections/projector';
import { rowTable, type TextRow } from '@wagers/platform/projections/row-table';
import { betRowPages, type BetStreamFact, changeBetRow } from '../bet-stream.ts';
import { betTermsSchema } from './bet-terms.schema.ts';

const REPORT_STANDS_MS = 7 * 24 * 60 * 60 * 1000;

const columns = {
  bet_id: 'uuid',
  creator_id: 'uuid',
  opponent_id: 'uuid',
  report_stands: 'boolean',
  opponent_reported: 'boolean',
  stands_at: 'timestamptz',
  draw_offered_by: 'uuid',
  settled_by: 'text',
  revision: 'bigint',
};
const betTerms = rowTable('rm_bet_terms', 'bet_id', columns);
type Row = TextRow<keyof typeof columns>;

/** Column changes one event makes to its bet's row (besides revision). */
function changes(row: Row, { event }: BetStreamFact): Partial<Row> | null {
  switch (event.type) {
    case 'BetAccepted':
    case 'BetInviteAccepted':
      return { opponent_id: event.data.opponentId };
    case 'ResolutionSubmitted': {
      // A new report withdraws a draw offer; the creator's restarts the standing clock.
      if (event.data.party === 'opponent')
        return { draw_offered_by: null, stands_at: null, opponent_reported: 'true' };
      const { submittedAt } = event.data;
      const stands =
        row.report_stands === 'true' && row.opponent_reported !== 'true' && submittedAt;
      return {
        draw_offered_by: null,
        stands_at: stands
          ? new Date(Date.parse(submittedAt) + REPORT_STANDS_MS).toISOString()
          : null,
      };
    }
    case 'DrawOffered':
      return { draw_offered_by: event.data.userId };
    case 'DrawAccepted':
      return { settled_by: 'draw', draw_offered_by: null };
    case 'ReportStood':
      return { settled_by: 'standing' };
    case 'BetCompleted':
      return { settled_by: row.settled_by ?? 'reports', stands_at: null };
    default:
      return null;
  }
}

/** A bet's terms after one more event of its stream; null once the bet is deleted. */
export function evolveBetTerms(row: Row | undefined, fact: BetStreamFact): Row | null | undefined {
  const { event } = fact;
  if (event.type === 'BetDeleted') return null;
  if (event.type === 'BetProposed') {
    return (
      row ?? {
        bet_id: fact.betId,
        creator_id: event.data.creatorId,
        opponent_id: event.data.opponentId,
        report_stands: String(event.data.reportStands === true),
        opponent_reported: 'false',
        stands_at: null,
        draw_offered_by: null,
        settled_by: null,
        revision: fact.revision.toString(),
      }
    );
  }
  const change = row && changes(row, fact);
  return change ? changeBetRow(row, fact, change) : row;
}

/**
 * Version 1 kept a deleted bet's row, so its terms were still answered when the bet was not.
 * Kept while a deploy may find its build live (decision 8): the same fold, but a deletion changed
 * nothing.
 */
const betTermsProjectorV1: Projector = {
  name: 'bet-terms',
  version: 1,
  schema: betTermsSchema,
  tables: ['rm_bet_terms'],
  applyPage: betRowPages(betTerms, (row, fact) =>
    fact.event.type === 'BetDeleted' ? row : evolveBetTerms(row, fact),
  ),
};

/**
 * rm_bet_terms: per bet, whether the creator's report can stand and any draw on offer, for bets
 * that are not deleted. A page is folded in memory and each bet's row written once.
 */
export const betTermsProjector: Projector = {
  name: 'bet-terms',
  version: 2,
  schema: betTermsSchema,
  tables: ['rm_bet_terms'],
  applyPage: betRowPages(betTerms, evolveBetTerms),
  previous: betTermsProjectorV1,
};
