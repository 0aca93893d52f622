import type { BetStreamEvent } from '@wagers/contracts/events/bet';
import type { Projector } from '@wagers/platform/projections/projector';
import { betStreamEvent, updateBetRow } from '../bet-stream.ts';
import { betTermsSchema } from './bet-terms.schema.ts';
const REPORT_STANDS_INTERVAL = `7 days`;

/** The SET clause one event makes on its rm_bet_terms row, with its values from $3 on. */
function changes(event: BetStreamEvent): [string, unknown[]] | null {
  switch (event.type) {
    case 'BetAccepted':
    case 'BetInviteAccepted':
      return ['opponent_id = $3', [event.data.opponentId]];
    case 'ResolutionSubmitted':
      // A new report withdraws a draw offer; the creator's restarts the standing clock.
      if (event.data.party === 'opponent')
        return ['draw_offered_by = NULL, stands_at = NULL, opponent_reported = true', []];
      return [
        `draw_offered_by = NULL,
         stands_at = CASE WHEN report_stands AND NOT opponent_reported
                          THEN $3::timestamptz + interval '${REPORT_STANDS_INTERVAL}' END`,
        [event.data.submittedAt ?? null],
      ];
    case 'DrawOffered':
      return ['draw_offered_by = $3', [event.data.userId]];
    case 'DrawAccepted':
      return [`settled_by = 'draw', draw_offered_by = NULL`, []];
    case 'ReportStood':
      return [`settled_by = 'standing'`, []];
    case 'BetCompleted':
      return [`settled_by = coalesce(settled_by, 'reports'), stands_at = NULL`, []];
    default:
      return null;
  }
}

/** rm_bet_terms: per bet, whether the creator's report can stand and any draw on offer. */
export const betTermsProjector: Projector = {
  name: 'bet-terms',
  version: 1,
  schema: betTermsSchema,
  tables: ['rm_bet_terms'],
  async apply(client, recorded) {
    const bet = betStreamEvent(recorded);
    if (!bet) return;
    const { event, betId, revision } = bet;
    if (event.type === 'BetProposed') {
      await client.query(
        `INSERT INTO rm_bet_terms (bet_id, creator_id, opponent_id, report_stands, revision)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (bet_id) DO NOTHING`,
        [
          betId,
          event.data.creatorId,
          event.data.opponentId,
          event.data.reportStands === true,
          revision,
        ],
      );
      return;
    }
    const change = changes(event);
    if (!change) return;
    const [set, values] = change;
    await updateBetRow(client, 'rm_bet_terms', bet, set, values);
  },
};
