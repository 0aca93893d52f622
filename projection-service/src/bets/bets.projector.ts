import type { ClientBase } from 'pg';
import { betEventSchemas, type BetEvent } from '@wagers/contracts/events/bet';
import { schemaReader } from '@wagers/platform/decider';
import type { RecordedEvent } from '@wagers/platform/event-store/port';
import type { Projector } from '@wagers/platform/projections/projector';

const readBetEvent = schemaReader<BetEvent>(betEventSchemas);

/** Column changes one event makes to its rm_bets row (besides revision and updated_at). */
function changes(event: BetEvent): Record<string, unknown> | null {
  switch (event.type) {
    case 'BetProposed':
      return null;
    case 'BetInviteAttached':
      return { invite_code: event.data.inviteCode };
    case 'BetInviteResent':
    case 'ResolutionDisputed':
      return {};
    case 'BetInviteAccepted':
      return { status: 'active', opponent_id: event.data.opponentId, invitee: null };
    case 'BetAccepted':
      return { status: 'active' };
    case 'BetDeclined':
      return { status: 'declined' };
    case 'BetDeleted':
      return { status: 'deleted' };
    case 'ResolutionSubmitted':
      return {
        status: 'awaiting_resolution',
        [event.data.party === 'creator' ? 'creator_resolution' : 'opponent_resolution']:
          event.data.resolution,
      };
    case 'BetCompleted':
      return { status: 'completed', winner_id: event.data.winnerId };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

async function insertBet(
  client: ClientBase,
  event: RecordedEvent,
  data: BetEvent & { type: 'BetProposed' },
) {
  const bet = data.data;
  await client.query(
    `INSERT INTO rm_bets (id, title, description, wager_type, wager_amount_cents, wager_description, end_date,
       validation_mode, status, creator_id, opponent_id, invitee, created_at, updated_at, revision)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, $10, $11, $12, $12, $13)
     ON CONFLICT (id) DO NOTHING`,
    [
      bet.betId,
      bet.title,
      bet.description,
      bet.wagerType,
      bet.wagerAmountCents,
      bet.wagerDescription,
      bet.endDate,
      bet.validationMode,
      bet.creatorId,
      bet.opponentId,
      bet.inviteeEmail ?? bet.inviteePhone,
      event.metadata.occurredAt,
      event.revision.toString(),
    ],
  );
}

async function updateBet(
  client: ClientBase,
  event: RecordedEvent,
  betId: string,
  columns: Record<string, unknown>,
) {
  const names = Object.keys(columns);
  const assignments = names.map((name, index) => `${name} = $${index + 4}`);
  await client.query(
    `UPDATE rm_bets SET ${[...assignments, 'updated_at = $3', 'revision = $2'].join(', ')}
     WHERE id = $1 AND revision < $2`,
    [
      betId,
      event.revision.toString(),
      event.metadata.occurredAt,
      ...names.map((name) => columns[name]),
    ],
  );
}

/**
 * rm_bets (the bet as lists and details show it) and rm_bet_history (every event of every bet,
 * in stream order). Both key on the stream revision, so replaying an event changes nothing.
 */
export const betsProjector: Projector = {
  name: 'bets',
  version: 1,
  tables: ['rm_bets', 'rm_bet_history'],
  async apply(client, recorded) {
    if (!recorded.streamId.startsWith('bet-')) return;
    const event = readBetEvent(recorded);
    if (!event) return;
    const betId = recorded.streamId.slice('bet-'.length);
    await client.query(
      `INSERT INTO rm_bet_history (bet_id, revision, event_id, type, data, actor_id, occurred_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (bet_id, revision) DO NOTHING`,
      [
        betId,
        recorded.revision.toString(),
        recorded.id,
        event.type,
        event.data,
        recorded.metadata.actorId,
        recorded.metadata.occurredAt,
      ],
    );
    if (event.type === 'BetProposed') {
      await insertBet(client, recorded, event);
      return;
    }
    const columns = changes(event);
    if (columns) await updateBet(client, recorded, betId, columns);
  },
};
