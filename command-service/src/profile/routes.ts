import { Router } from 'express';
import {
  deleteAccountRequestSchema,
  updateProfileRequestSchema,
  type AccountDeletedResponse,
} from '@wagers/contracts/api/profile';
import { currentUserId, requireUser, sessionToken } from '@wagers/platform/auth/sessions';
import { handle } from '@wagers/platform/aggregate';
import { parseInput } from '@wagers/platform/http/validate';
import { commandContext, recordWrite } from '../context.ts';
import type { CommandServiceDeps } from '../deps.ts';
import type { AvatarStore } from '../avatar/avatar-store.ts';
import { loadUser, loadUserView } from '../users/load-user.ts';
import { userAggregate } from '@wagers/domain/users/user';

/**
 * PUT /api/user: the signed-in user's own first and last name; answers with the user.
 * DELETE /api/user: deletes the signed-in user's account, confirmed by its email address typed
 * again, and signs this browser out; the erasure process manager does the rest (decision 0018).
 */
export function profileRouter(deps: CommandServiceDeps, avatars: AvatarStore): Router {
  const router = Router();
  router.put('/api/user', requireUser, async (req, res) => {
    const { firstName, lastName } = parseInput(updateProfileRequestSchema, req.body);
    const userId = currentUserId(req);
    const result = await handle(
      deps.store,
      userAggregate,
      userId,
      { type: 'UpdateProfile', data: { userId, firstName, lastName } },
      commandContext(req, deps.runtime),
    );
    await recordWrite(deps.sessions, req, res, result.position);
    res.json(await loadUserView(deps.store, userId));
  });
  router.delete('/api/user', requireUser, async (req, res) => {
    const { confirmEmail } = parseInput(deleteAccountRequestSchema, req.body);
    const userId = currentUserId(req);
    const before = await loadUser(deps.store, userId);
    await handle(
      deps.store,
      userAggregate,
      userId,
      { type: 'DeleteAccount', data: { userId, confirmEmail } },
      commandContext(req, deps.runtime),
    );
    // The picture goes with the account: its URL stops serving it.
    const avatarUrl = before.status === 'registered' ? before.avatarUrl : null;
    const picture = avatarUrl ? avatars.ownedKey(avatarUrl, userId) : null;
    if (picture) await avatars.remove(picture);
    await deps.sessions.destroy(sessionToken(req.headers.cookie), res);
    res.json({ status: 'deleted' } satisfies AccountDeletedResponse);
  });
  return router;
}
