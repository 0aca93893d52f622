import { friendshipEventSchemas } from '@wagers/contracts/events/friendship';
import type { RecordedEvent } from '@wagers/platform/event-store/port';
import type { Projector } from '@wagers/platform/projections/projector';
import { arrayLiteral, quoteLiteral } from '@wagers/platform/projections/copy';
import { keysToRead, rowTable, type TextRow } from '@wagers/platform/projections/row-table';
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
  'BetSideLeft',
]);

const betColumns = { bet_id: 'uuid', title: 'text', creator_id: 'uuid', opponent_id: 'uuid' };
const activityBets = rowTable('rm_activity_bets', 'bet_id', betColumns);
type BetRow = TextRow<keyof typeof betColumns>;

const activityColumns = 'user_id, event_id, type, data, bet_id, other_id, actor_id, occurred_at';

/**
 * A page's activity rows as one statement of text, in log order (each row's seq follows the one
 * before): a JSON document, the events' data spliced in as the JSON it already is.
 */
function activityStatement(rows: ActivityRow[]): string {
  const text = (value: string | null) => JSON.stringify(value);
  const document = rows
    .map(
      ([user, eventId, type, data, betId, otherId, actorId, occurredAt]) =>
        `{"user_id":${text(user)},"event_id":${text(eventId)},"type":${text(type)},"data":${data},` +
        `"bet_id":${text(betId)},"other_id":${text(otherId)},"actor_id":${text(actorId)},` +
        `"occurred_at":${text(occurredAt)}}`,
    )
    .join(',');
  return `INSERT INTO rm_activity (${activityColumns})
    SELECT ${activityColumns}
    FROM ROWS FROM (json_to_recordset(${quoteLiteral(`[${document}]`)}::json)
      AS (user_id uuid, event_id uuid, type text, data jsonb, bet_id uuid, other_id uuid,
          actor_id uuid, occurred_at timestamptz))
      WITH ORDINALITY AS a(${activityColumns}, ord)
    ORDER BY ord
    ON CONFLICT (user_id, event_id) DO NOTHING`;
}

/**
 * Bets proposed in a live page, which may be stored already when the page is applied again. A
 * bet's parties change once, when an invitee accepts and becomes the opponent, and its title
 * never: so a stored row is kept, but for an opponent it did not have yet.
 */
function startedBetsStatement(rows: BetRow[]): string {
  return `${activityBets.insertStatement(rows)}
    ON CONFLICT (bet_id) DO UPDATE SET opponent_id = excluded.opponent_id
    WHERE rm_activity_bets.opponent_id IS NULL`;
}

/** One row of rm_activity: an event as one person sees it. */
type ActivityRow = [
  user: string,
  eventId: string,
  type: string,
  data: string,
  betId: string | null,
  otherId: string | null,
  actorId: string | null,
  occurredAt: string,
];

/** The page's activity, folded in memory: the parties of its bets, and the rows to add. */
class PageActivity {
  readonly rows: ActivityRow[] = [];
  /** Bets deleted in this page: their earlier activity goes. */
  readonly deleted = new Set<string>();

  constructor(readonly bets: Map<string, BetRow>) {}

  record(
    recorded: RecordedEvent,
    users: (string | null)[],
    refs: { betId?: string; otherOf?: (userId: string) => string },
  ): void {
    const data = JSON.stringify(recorded.data);
    for (const userId of new Set(users)) {
      if (userId === null) continue;
      this.rows.push([
        userId,
        recorded.id,
        recorded.type,
        data,
        refs.betId ?? null,
        refs.otherOf?.(userId) ?? null,
        recorded.metadata.actorId,
        recorded.metadata.occurredAt,
      ]);
    }
  }

  betEvent(recorded: RecordedEvent): void {
    const bet = betStreamEvent(recorded);
    if (!bet) return;
    const { event, betId } = bet;
    const row = this.bets.get(betId);
    if (event.type === 'BetProposed' && !row) {
      const { title, creatorId, opponentId } = event.data;
      this.bets.set(betId, {
        bet_id: betId,
        title,
        creator_id: creatorId,
        opponent_id: opponentId,
      });
    }
    if (event.type === 'BetInviteAccepted' && row) {
      this.bets.set(betId, { ...row, opponent_id: event.data.opponentId });
    }
    if (event.type === 'BetDeleted') {
      // A deleted bet has left every list, and its activity leads nowhere.
      this.deleted.add(betId);
      const kept = this.rows.filter((activity) => activity[4] !== betId);
      this.rows.splice(0, this.rows.length, ...kept);
      return;
    }
    if (!shownBetEvents.has(event.type)) return;
    const parties = this.bets.get(betId);
    if (!parties) return;
    this.record(recorded, [parties.creator_id, parties.opponent_id], { betId });
  }
}

/**
 * rm_activity: per person, the events on their bets and friendships. Keyed by (person, event id),
 * so a replayed event changes nothing. A page is folded in memory and written in a few
 * statements: the bets it names but did not propose are loaded once, new and changed ones written
 * once, activity of deleted bets removed, and the page's activity added in log order. A live page
 * of new bets reads nothing, so it is sent whole with its commit.
 */
export const activityProjector: Projector = {
  name: 'activity',
  version: 1,
  schema: activitySchema,
  tables: ['rm_activity', 'rm_activity_bets'],
  async applyPage(client, events, { atCommit }) {
    // A bet proposed in the page is folded from its proposal, not read (decision 27).
    const { toRead } = keysToRead(
      events.filter((recorded) => recorded.streamId.startsWith('bet-')),
      (recorded) => recorded.streamId.slice('bet-'.length),
      (recorded) => recorded.type === 'BetProposed',
    );
    const stored = await activityBets.load(client, toRead);
    const page = new PageActivity(new Map(stored));
    for (const recorded of events) {
      if (recorded.streamId.startsWith('bet-')) page.betEvent(recorded);
      else if (recorded.type === 'FriendRequestSent') {
        const { senderId, receiverId } = friendshipEventSchemas.FriendRequestSent.parse(
          recorded.data,
        );
        page.record(recorded, [senderId, receiverId], {
          otherOf: (userId) => (userId === senderId ? receiverId : senderId),
        });
      } else if (recorded.type === 'FriendshipStarted') {
        const [a, b] = friendshipEventSchemas.FriendshipStarted.parse(recorded.data).userIds;
        page.record(recorded, [a, b], { otherOf: (userId) => (userId === a ? b : a) });
      }
    }
    const bets = [...page.bets];
    const created = bets.filter(([id]) => !stored.has(id)).map(([, row]) => row);
    const changed = bets
      .filter(([id, row]) => stored.has(id) && stored.get(id) !== row)
      .map(([, row]) => row);
    // rm_activity's writes are text, sent with a live page's commit or at once in bulk.
    const activityWrites: string[] = [];
    if (page.deleted.size > 0)
      activityWrites.push(
        `DELETE FROM rm_activity WHERE bet_id = ANY(${arrayLiteral([...page.deleted], 'uuid')})`,
      );
    if (page.rows.length > 0) activityWrites.push(activityStatement(page.rows));
    if (atCommit) {
      if (created.length > 0) atCommit(startedBetsStatement(created));
      if (changed.length > 0) atCommit(activityBets.updateStatement(changed));
      for (const sql of activityWrites) atCommit(sql);
      return;
    }
    await activityBets.insert(client, created);
    await activityBets.update(client, changed);
    if (activityWrites.length > 0) await client.query(activityWrites.join('; '));
  },
};
