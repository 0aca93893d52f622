import { betEventSchemas, type BetEvent } from '@wagers/contracts/events/bet';
import { schemaReader } from '@wagers/platform/decider';
import type { Projector } from '@wagers/platform/projections/projector';

const readBetEvent = schemaReader<BetEvent>(betEventSchemas);

/**
 * rm_head_to_head: who bet against whom and who won, for each pair's record. Rows key on the
 * stream revision, so a replayed event changes nothing.
 */
export const headToHeadProjector: Projector = {
  name: 'head-to-head',
  version: 1,
  tables: ['rm_head_to_head'],
  async apply(client, recorded) {
    if (!recorded.streamId.startsWith('bet-')) return;
    const event = readBetEvent(recorded);
    if (!event) return;
    const betId = recorded.streamId.slice('bet-'.length);
    const revision = recorded.revision.toString();
    const update = (set: string, values: unknown[]) =>
      client.query(
        `UPDATE rm_head_to_head SET ${set}, revision = $2 WHERE bet_id = $1 AND revision < $2`,
        [betId, revision, ...values],
      );
    switch (event.type) {
      case 'BetProposed': {
        const bet = event.data;
        await client.query(
          `INSERT INTO rm_head_to_head (bet_id, creator_id, opponent_id, amount_cents, revision)
           VALUES ($1, $2, $3, $4, $5) ON CONFLICT (bet_id) DO NOTHING`,
          [
            betId,
            bet.creatorId,
            bet.opponentId,
            bet.wagerType === 'money' ? bet.wagerAmountCents : null,
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
