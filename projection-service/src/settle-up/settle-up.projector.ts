import { betStreamEventSchemas, type BetStreamEvent } from '@wagers/contracts/events/bet';
import { schemaReader } from '@wagers/platform/decider';
import type { Projector } from '@wagers/platform/projections/projector';

const readBetStreamEvent = schemaReader<BetStreamEvent>(betStreamEventSchemas);

/** Column changes one event makes to its rm_settle_up row; null when it changes nothing. */
function changes(event: BetStreamEvent): Record<string, unknown> | null {
  switch (event.type) {
    case 'BetAccepted':
    case 'BetInviteAccepted':
      return { opponent_id: event.data.opponentId };
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

/**
 * rm_settle_up: money bets and who owes whom once they complete. Rows key on the stream
 * revision, so a replayed event changes nothing.
 */
export const settleUpProjector: Projector = {
  name: 'settle-up',
  version: 1,
  tables: ['rm_settle_up'],
  async apply(client, recorded) {
    if (!recorded.streamId.startsWith('bet-')) return;
    const event = readBetStreamEvent(recorded);
    if (!event) return;
    const betId = recorded.streamId.slice('bet-'.length);
    const revision = recorded.revision.toString();
    const at = recorded.metadata.occurredAt;
    if (event.type === 'BetProposed') {
      const bet = event.data;
      if (bet.wagerType !== 'money' || !bet.wagerAmountCents) return;
      await client.query(
        `INSERT INTO rm_settle_up (bet_id, title, amount_cents, creator_id, opponent_id, updated_at, revision)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (bet_id) DO NOTHING`,
        [betId, bet.title, bet.wagerAmountCents, bet.creatorId, bet.opponentId, at, revision],
      );
      return;
    }
    if (event.type === 'BetDeclined' || event.type === 'BetDeleted') {
      await client.query(`DELETE FROM rm_settle_up WHERE bet_id = $1`, [betId]);
      return;
    }
    if (event.type === 'BetCompleted' && event.data.winnerId !== null) {
      // The loser is whichever participant did not win.
      await client.query(
        `UPDATE rm_settle_up SET winner_id = $4,
           loser_id = CASE WHEN creator_id = $4 THEN opponent_id ELSE creator_id END,
           updated_at = $3, revision = $2
         WHERE bet_id = $1 AND revision < $2`,
        [betId, revision, at, event.data.winnerId],
      );
      return;
    }
    const columns = changes(event);
    if (!columns) return;
    const names = Object.keys(columns);
    const assignments = names.map((name, index) => `${name} = $${index + 4}`);
    await client.query(
      `UPDATE rm_settle_up SET ${[...assignments, 'updated_at = $3', 'revision = $2'].join(', ')}
       WHERE bet_id = $1 AND revision < $2`,
      [betId, revision, at, ...names.map((name) => columns[name])],
    );
  },
};
