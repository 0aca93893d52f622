import type { ClientBase } from 'pg';
import { friendshipEventSchemas } from '@wagers/contracts/events/friendship';
import type { RecordedEvent } from '@wagers/platform/event-store/port';
import type { Projector } from '@wagers/platform/projections/projector';
import { betStreamEvent } from '../bet-stream.ts';
import { activitySchema } from './activity.schema.ts';

/** Bet events a person sees in their activity; the rest is plumbing (invite codes, resends). */
const shownBetEvents = new Set<string>([
  'BetProposed',
  'BetAccepted',
  'BetDeclined',
  'BetInviteAccepted',
  'ResolutionSubmitted',
  'ResolutionDisputed',
  'BetCompleted',
  'BetMarkedPaid',
  'BetPaymentConfirmed',
  'BetPaymentNotReceived',
  'DrawOffered',
  'DrawAccepted',
  'ReportStood',
]);

async function record(
  client: ClientBase,
  recorded: RecordedEvent,
  users: (string | null)[],
  refs: { betId?: string; otherOf?: (userId: string) => string },
) {
  for (const userId of new Set(users)) {
    if (userId === null) continue;
    await client.query(
      `INSERT INTO rm_activity (user_id, event_id, type, data, bet_id, other_id, actor_id, occurred_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (user_id, event_id) DO NOTHING`,
      [
        userId,
        recorded.id,
        recorded.type,
        recorded.data,
        refs.betId ?? null,
        refs.otherOf?.(userId) ?? null,
        recorded.metadata.actorId,
        recorded.metadata.occurredAt,
      ],
    );
  }
}

async function applyBetEvent(client: ClientBase, recorded: RecordedEvent) {
  const bet = betStreamEvent(recorded);
  if (!bet) return;
  const { event, betId } = bet;
  if (event.type === 'BetProposed') {
    await client.query(
      `INSERT INTO rm_activity_bets (bet_id, title, creator_id, opponent_id)
       VALUES ($1, $2, $3, $4) ON CONFLICT (bet_id) DO NOTHING`,
      [betId, event.data.title, event.data.creatorId, event.data.opponentId],
    );
  }
  if (event.type === 'BetInviteAccepted') {
    await client.query(`UPDATE rm_activity_bets SET opponent_id = $2 WHERE bet_id = $1`, [
      betId,
      event.data.opponentId,
    ]);
  }
  if (event.type === 'BetDeleted') {
    // A deleted bet has left every list, and its activity leads nowhere.
    await client.query(`DELETE FROM rm_activity WHERE bet_id = $1`, [betId]);
    return;
  }
  if (!shownBetEvents.has(event.type)) return;
  const found = await client.query<{ creator_id: string; opponent_id: string | null }>(
    `SELECT creator_id, opponent_id FROM rm_activity_bets WHERE bet_id = $1`,
    [betId],
  );
  const parties = found.rows[0];
  if (!parties) return;
  await record(client, recorded, [parties.creator_id, parties.opponent_id], { betId });
}

/**
 * rm_activity: per person, the events on their bets and friendships. Keyed by (person, event id),
 * so a replayed event changes nothing.
 */
export const activityProjector: Projector = {
  name: 'activity',
  version: 1,
  schema: activitySchema,
  tables: ['rm_activity', 'rm_activity_bets'],
  async apply(client, recorded) {
    if (recorded.streamId.startsWith('bet-')) return applyBetEvent(client, recorded);
    if (recorded.type === 'FriendRequestSent') {
      const { senderId, receiverId } = friendshipEventSchemas.FriendRequestSent.parse(
        recorded.data,
      );
      await record(client, recorded, [senderId, receiverId], {
        otherOf: (userId) => (userId === senderId ? receiverId : senderId),
      });
    }
    if (recorded.type === 'FriendshipStarted') {
      const [a, b] = friendshipEventSchemas.FriendshipStarted.parse(recorded.data).userIds;
      await record(client, recorded, [a, b], { otherOf: (userId) => (userId === a ? b : a) });
    }
  },
};
