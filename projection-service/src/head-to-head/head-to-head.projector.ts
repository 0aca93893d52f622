import type { Projector } from '@wagers/platform/projections/projector';
import { betStreamEvent, updateBetRow } from '../bet-stream.ts';
import { headToHeadSchema } from './head-to-head.schema.ts';

/**
 * rm_head_to_head: who bet against whom and who won, for each pair's record. Rows key on the
 * stream revision, so a replayed event changes nothing.
 */
export const headToHeadProjector: Projector = {
  name: 'head-to-head',
  version: 1,
  schema: headToHeadSchema,
  tables: ['rm_head_to_head'],
  async apply(client, recorded) {
    const bet = betStreamEvent(recorded);
    if (!bet) return;
    const { event, betId, revision } = bet;
    const update = (set: string, values: unknown[]) =>
      updateBetRow(client, 'rm_head_to_head', bet, set, values);
    switch (event.type) {
      case 'BetProposed': {
        const data = event.data;
        await client.query(
          `INSERT INTO rm_head_to_head (bet_id, creator_id, opponent_id, amount_cents, revision)
           VALUES ($1, $2, $3, $4, $5) ON CONFLICT (bet_id) DO NOTHING`,
          [
            betId,
            data.creatorId,
            data.opponentId,
            data.wagerType === 'money' ? data.wagerAmountCents : null,
            revision,
          ],
        );
        return;
      }
      case 'BetAccepted':
      case 'BetInviteAccepted':
        await update('opponent_id = $3', [event.data.opponentId]);
        return;
      case 'BetCompleted':
        await update('completed = true, winner_id = $3', [event.data.winnerId]);
        return;
      case 'BetDeclined':
      case 'BetDeleted':
        await client.query(`DELETE FROM rm_head_to_head WHERE bet_id = $1`, [betId]);
        return;
      default:
        return;
    }
  },
};
