import { friendshipEventSchemas } from '@wagers/contracts/events/friendship';
import type { Projector } from '@wagers/platform/projections/projector';
import { friendsSchema } from './friends.schema.ts';

/** rm_friendships (both directions) and rm_friend_requests, from the pairs' friendship streams. */
export const friendsProjector: Projector = {
  name: 'friends',
  version: 1,
  tables: ['rm_friendships', 'rm_friend_requests'],
  schema: friendsSchema,
  async apply(client, event) {
    const revision = event.revision.toString();
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'FriendRequestSent': {
        const data = friendshipEventSchemas.FriendRequestSent.parse(event.data);
        await client.query(
          `INSERT INTO rm_friend_requests (id, sender_id, receiver_id, status, created_at, revision)
           VALUES ($1, $2, $3, 'pending', $4, $5) ON CONFLICT (id) DO NOTHING`,
          [data.requestId, data.senderId, data.receiverId, at, revision],
        );
        return;
      }
      case 'FriendRequestAccepted':
      case 'FriendRequestDeclined': {
        const data = friendshipEventSchemas[event.type].parse(event.data);
        await client.query(
          `UPDATE rm_friend_requests SET status = $2, revision = $3 WHERE id = $1 AND revision < $3`,
          [
            data.requestId,
            event.type === 'FriendRequestAccepted' ? 'accepted' : 'declined',
            revision,
          ],
        );
        return;
      }
      case 'FriendshipStarted': {
        const [a, b] = friendshipEventSchemas.FriendshipStarted.parse(event.data).userIds;
        await client.query(
          `INSERT INTO rm_friendships (user_id, friend_id, since, revision)
           VALUES ($1, $2, $3, $4), ($2, $1, $3, $4) ON CONFLICT DO NOTHING`,
          [a, b, at, revision],
        );
        // A friendship made through an invite settles a request still pending between the two.
        await client.query(
          `UPDATE rm_friend_requests SET status = 'accepted', revision = $3
           WHERE status = 'pending' AND revision < $3
             AND ((sender_id = $1 AND receiver_id = $2) OR (sender_id = $2 AND receiver_id = $1))`,
          [a, b, revision],
        );
        return;
      }
      default:
        return;
    }
  },
};
