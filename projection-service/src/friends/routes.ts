import { Router } from 'express';
import type { FriendRequest } from '@wagers/contracts/api/friends';
import { currentUserId, requireUser } from '@wagers/platform/auth/sessions';
import { readYourWrites } from '../consistency.ts';
import type { QueryServiceDeps } from '../deps.ts';
import { toUser, userColumns, type UserRow } from '../users/user-row.ts';

const prefixed = (alias: string, prefix: string) =>
  userColumns
    .split(', ')
    .map((column) => `${alias}.${column} AS ${prefix}${column}`)
    .join(', ');

function userFrom(row: Record<string, unknown>, prefix: string): UserRow {
  const pick = (column: string) => row[`${prefix}${column}`];
  return {
    id: pick('id') as string,
    email: pick('email') as string | null,
    first_name: pick('first_name') as string | null,
    last_name: pick('last_name') as string | null,
    profile_image_url: pick('profile_image_url') as string | null,
    created_at: pick('created_at') as Date,
    deleted_at: pick('deleted_at') as Date | null,
  };
}

/** GET /api/friends and GET /api/friend-requests: the caller's own, from the friends read model. */
export function friendsQueryRouter(deps: QueryServiceDeps): Router {
  const router = Router();
  const fresh = readYourWrites(deps, ['friends', 'users']);

  router.get('/api/friends', requireUser, fresh, async (req, res) => {
    // A friend who deleted their account is nobody to bet with any more: they leave the list.
    const result = await deps.pool.query<UserRow>(
      `SELECT ${prefixed('u', '')} FROM rm_friendships f JOIN rm_users u ON u.id = f.friend_id
       WHERE f.user_id = $1 AND u.deleted_at IS NULL
       ORDER BY lower(coalesce(u.first_name, '')), lower(coalesce(u.last_name, '')), lower(u.email)`,
      [currentUserId(req)],
    );
    res.json(result.rows.map((row) => toUser(row)));
  });

  router.get('/api/friend-requests', requireUser, fresh, async (req, res) => {
    const me = currentUserId(req);
    // A request to or from an account deleted since can no longer make a friend: it is not shown.
    const result = await deps.pool.query<
      Record<string, unknown> & { id: string; created_at: Date }
    >(
      `SELECT r.id, r.created_at, ${prefixed('s', 's_')}, ${prefixed('v', 'r_')}
       FROM rm_friend_requests r
       JOIN rm_users s ON s.id = r.sender_id
       JOIN rm_users v ON v.id = r.receiver_id
       WHERE r.status = 'pending' AND (r.sender_id = $1 OR r.receiver_id = $1)
         AND s.deleted_at IS NULL AND v.deleted_at IS NULL
       ORDER BY r.created_at DESC, r.id`,
      [me],
    );
    const requests: FriendRequest[] = result.rows.map((row) => {
      const sender = userFrom(row, 's_');
      const receiver = userFrom(row, 'r_');
      // Someone who asks to be your friend introduces themself: you see their email. The person
      // you asked is not your friend yet, so search rules apply: you do not see theirs.
      return {
        id: row.id,
        senderId: sender.id,
        receiverId: receiver.id,
        sender: toUser(sender),
        receiver: toUser(receiver, { showEmail: receiver.id === me }),
        status: 'pending',
        createdAt: row.created_at.toISOString(),
      };
    });
    res.json(requests);
  });

  return router;
}
