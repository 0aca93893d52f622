import type { BetStreamEvent } from '@wagers/contracts/events/bet';
import type { Projector } from '@wagers/platform/projections/projector';
import { betStreamEvent, updateBetRow } from '../bet-stream.ts';
import { settleUpSchema } from './settle-up.schema.ts';

/** The SET clause one event makes on its rm_settle_up row, with its values from $3 on. */
function changes(event: BetStreamEvent): [string, unknown[]] | null {
  switch (event.type) {
    case 'BetAccepted':
    case 'BetInviteAccepted':
      return ['opponent_id = $3', [event.data.opponentId]];
    case 'BetCompleted':
      // The loser is whichever participant did not win; a draw owes nothing.
      return event.data.winnerId === null
        ? null
        : [
            `winner_id = $3, loser_id = CASE WHEN creator_id = $3 THEN opponent_id ELSE creator_id END`,
            [event.data.winnerId],
          ];
    case 'BetMarkedPaid':
      return [`payment_status = 'marked_paid'`, []];
    case 'BetPaymentConfirmed':
      return [`payment_status = 'confirmed'`, []];
    case 'BetPaymentNotReceived':
      return [`payment_status = 'unpaid'`, []];
    default:
      return null;
  }
}

/**
 * rm_settle_up: money bets and who owes whom once they complete. Rows key on the stream
 * revision, so a replayed event changes nothing.
 */
export const settleUpProjector: Projector = {
  name: 'settle-up',
  version: 1,
  schema: settleUpSchema,
  tables: ['rm_settle_up'],
  async apply(client, recorded) {
    const bet = betStreamEvent(recorded);
    if (!bet) return;
    const { event, betId, revision } = bet;
    if (event.type === 'BetProposed') {
      const data = event.data;
      if (data.wagerType !== 'money' || !data.wagerAmountCents) return;
      await client.query(
        `INSERT INTO rm_settle_up (bet_id, title, amount_cents, creator_id, opponent_id, updated_at, revision)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (bet_id) DO NOTHING`,
        [
          betId,
          data.title,
          data.wagerAmountCents,
          data.creatorId,
          data.opponentId,
          recorded.metadata.occurredAt,
          revision,
        ],
      );
      return;
    }
    if (event.type === 'BetDeclined' || event.type === 'BetDeleted') {
      await client.query(`DELETE FROM rm_settle_up WHERE bet_id = $1`, [betId]);
      return;
    }
    const change = changes(event);
    if (!change) return;
    const [set, values] = change;
    const at = values.length + 3;
    await updateBetRow(client, 'rm_settle_up', bet, `${set}, updated_at = $${at}`, [
      ...values,
      recorded.metadata.occurredAt,
    ]);
  },
};
