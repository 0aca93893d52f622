import type { ClientBase } from 'pg';
import { friendshipEventSchemas, type FriendshipEvent } from '@wagers/contracts/events/friendship';
import { schemaReader } from '@wagers/platform/decider';
import type { Projector } from '@wagers/platform/projections/projector';
import { factsOf, rowTable, type Fact, type TextRow } from '@wagers/platform/projections/row-table';
import { friendsSchema } from './friends.schema.ts';

const readFriendshipEvent = schemaReader<FriendshipEvent>(friendshipEventSchemas);

const requestColumns = {
  id: 'text',
  sender_id: 'uuid',
  receiver_id: 'uuid',
  status: 'text',
  created_at: 'timestamptz',
  revision: 'bigint',
};
const requests = rowTable('rm_friend_requests', 'id', requestColumns);
type RequestRow = TextRow<keyof typeof requestColumns>;

/** Requests still pending between any of the pairs (both directions), as `requests.load` gives rows. */
async function loadPendingBetween(
  client: ClientBase,
  pairs: [string, string][],
): Promise<RequestRow[]> {
  if (pairs.length === 0) return [];
  const result = await client.query<RequestRow>(
    `SELECT id, sender_id::text AS sender_id, receiver_id::text AS receiver_id, status,
            created_at::text AS created_at, revision::text AS revision
     FROM rm_friend_requests r
     WHERE status = 'pending'
       AND (least(sender_id, receiver_id), greatest(sender_id, receiver_id)) IN (
         SELECT least(a, b), greatest(a, b) FROM unnest($1::uuid[], $2::uuid[]) AS p(a, b))`,
    [pairs.map(([a]) => a), pairs.map(([, b]) => b)],
  );
  return result.rows;
}

const between = (row: RequestRow, [a, b]: [string, string]) =>
  (row.sender_id === a && row.receiver_id === b) || (row.sender_id === b && row.receiver_id === a);

/** The requests after one more event of a pair's stream; an event applied before changes nothing. */
function evolveRequests(rows: Map<string, RequestRow>, fact: Fact<FriendshipEvent>): void {
  const { event, occurredAt } = fact;
  const revision = fact.revision.toString();
  const newer = (row: RequestRow) => BigInt(row.revision!) < fact.revision;
  switch (event.type) {
    case 'FriendRequestSent': {
      const { requestId, senderId, receiverId } = event.data;
      if (!rows.has(requestId)) {
        rows.set(requestId, {
          id: requestId,
          sender_id: senderId,
          receiver_id: receiverId,
          status: 'pending',
          created_at: occurredAt,
          revision,
        });
      }
      return;
    }
    case 'FriendRequestAccepted':
    case 'FriendRequestDeclined': {
      const row = rows.get(event.data.requestId);
      if (row && newer(row)) {
        const status = event.type === 'FriendRequestAccepted' ? 'accepted' : 'declined';
        rows.set(row.id!, { ...row, status, revision });
      }
      return;
    }
    case 'FriendshipStarted':
      // A friendship made through an invite settles a request still pending between the two.
      for (const row of rows.values()) {
        if (row.status === 'pending' && newer(row) && between(row, event.data.userIds)) {
          rows.set(row.id!, { ...row, status: 'accepted', revision });
        }
      }
      return;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

/**
 * rm_friendships (both directions) and rm_friend_requests, from the pairs' friendship streams. A
 * page is folded in memory: the requests it touches (and those pending between pairs that become
 * friends) are loaded once, new ones inserted and changed ones updated in one statement each, and
 * new friendships inserted in one more.
 */
export const friendsProjector: Projector = {
  name: 'friends',
  version: 1,
  eventTypes: new Set(Object.keys(friendshipEventSchemas)),
  tables: ['rm_friendships', 'rm_friend_requests'],
  schema: friendsSchema,
  async applyPage(client, events) {
    const facts = factsOf(events, readFriendshipEvent);
    if (facts.length === 0) return;
    const pairs: [string, string][] = [];
    const ids: string[] = [];
    for (const { event } of facts) {
      if (event.type === 'FriendshipStarted') pairs.push(event.data.userIds);
      else ids.push(event.data.requestId);
    }
    const stored = await requests.load(client, ids);
    for (const row of await loadPendingBetween(client, pairs)) stored.set(row.id!, row);
    const rows = new Map(stored);
    const friendships = new Map<string, [string, string, string, string]>();
    for (const fact of facts) {
      evolveRequests(rows, fact);
      if (fact.event.type !== 'FriendshipStarted') continue;
      const [a, b] = fact.event.data.userIds;
      const revision = fact.revision.toString();
      for (const [user, friend] of [
        [a, b],
        [b, a],
      ] as const) {
        const key = `${user}:${friend}`;
        if (!friendships.has(key)) friendships.set(key, [user, friend, fact.occurredAt, revision]);
      }
    }
    await requests.insert(
      client,
      [...rows].filter(([id]) => !stored.has(id)).map(([, row]) => row),
    );
    await requests.update(
      client,
      [...rows].filter(([id, row]) => stored.has(id) && stored.get(id) !== row).map(([, r]) => r),
    );
    if (friendships.size > 0) {
      const values = [...friendships.values()];
      // A friendship a replayed page already stored keeps its row.
      await client.query(
        `INSERT INTO rm_friendships (user_id, friend_id, since, revision)
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::bigint[])
         ON CONFLICT DO NOTHING`,
        [0, 1, 2, 3].map((column) => values.map((value) => value[column])),
      );
    }
  },
};
