import { Router } from 'express';
import { z } from 'zod';
import { sendFriendRequestSchema } from '@wagers/contracts/api/friends';
import { currentUserId, requireUser } from '@wagers/platform/auth/sessions';
import { handle } from '@wagers/platform/aggregate';
import { notFound } from '@wagers/platform/errors';
import { parseInput } from '@wagers/platform/http/validate';
import { rateLimits } from '@wagers/platform/limits/rate-limits';
import { commandContext, recordWrite } from '../context.ts';
import type { CommandServiceDeps } from '../deps.ts';
import { friendshipAggregate, type FriendshipCommand } from '@wagers/domain/friends/friendship';
import { parseRequestId } from '@wagers/domain/friends/request-id';
import { sendFriendRequest } from './send-request.ts';
import { loadUser } from '../users/load-user.ts';

const receiverSchema = sendFriendRequestSchema.extend({
  receiverId: sendFriendRequestSchema.shape.receiverId.pipe(z.uuid({ error: 'No such user' })),
});

/** Friend requests: send, accept, decline. Only the receiver answers a request. */
export function friendsRouter(deps: CommandServiceDeps): Router {
  const router = Router();
  const limits = rateLimits(deps.pool, deps.runtime.now);

  router.post('/api/friend-requests', requireUser, async (req, res) => {
    const { receiverId } = parseInput(receiverSchema, req.body);
    const senderId = currentUserId(req);
    // Each request emails its receiver: counted per sender, only once the friendship's rules
    // have let it through (a refused request costs nothing), and refused with 429 before the
    // append when over.
    const outcome = await sendFriendRequest(
      deps.store,
      { senderId, receiverId },
      commandContext(req, deps.runtime),
      () =>
        limits.consume(
          { rule: 'friend-requests-per-sender', key: senderId },
          { rule: 'friend-requests-per-sender-per-day', key: senderId },
        ),
    );
    await recordWrite(deps.sessions, req, res, outcome.position);
    res.status(201).json({ id: outcome.requestId, status: outcome.status });
  });

  const answer = (type: 'AcceptFriendRequest' | 'DeclineFriendRequest') =>
    router.post(
      `/api/friend-requests/:id/${type === 'AcceptFriendRequest' ? 'accept' : 'decline'}`,
      requireUser,
      async (req, res) => {
        const requestId = String(req.params.id);
        const pair = parseRequestId(requestId);
        if (!pair) throw notFound('Friend request not found');
        const actorId = currentUserId(req);
        const command: FriendshipCommand =
          type === 'AcceptFriendRequest'
            ? {
                type,
                data: {
                  requestId,
                  actorId,
                  senderDeleted: (await loadUser(deps.store, pair.senderId)).status === 'deleted',
                },
              }
            : { type, data: { requestId, actorId } };
        const result = await handle(
          deps.store,
          friendshipAggregate,
          [pair.senderId, pair.receiverId],
          command,
          commandContext(req, deps.runtime),
        );
        await recordWrite(deps.sessions, req, res, result.position);
        res.json({
          id: requestId,
          status: type === 'AcceptFriendRequest' ? 'accepted' : 'declined',
          friendId: pair.senderId,
        });
      },
    );
  answer('AcceptFriendRequest');
  answer('DeclineFriendRequest');

  return router;
}
