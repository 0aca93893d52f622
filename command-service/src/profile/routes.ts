import { Router } from 'express';
import { updateProfileRequestSchema } from '@wagers/contracts/api/profile';
import { userStream } from '@wagers/contracts/events/user';
import { currentUserId, requireUser } from '@wagers/platform/auth/sessions';
import { handleCommand } from '@wagers/platform/decider';
import { parseInput } from '@wagers/platform/http/validate';
import { commandContext, sendPosition } from '../context.ts';
import type { CommandServiceDeps } from '../deps.ts';
import { loadUserView } from '../users/load-user.ts';
import { readUserEvent, userDecider } from '../users/user.ts';

/** PUT /api/user: the signed-in user's own first and last name; answers with the user. */
export function profileRouter(deps: CommandServiceDeps): Router {
  const router = Router();
  router.put('/api/user', requireUser, async (req, res) => {
    const { firstName, lastName } = parseInput(updateProfileRequestSchema, req.body);
    const userId = currentUserId(req);
    const result = await handleCommand(
      deps.store,
      userStream(userId),
      userDecider,
      readUserEvent,
      { type: 'UpdateProfile', data: { userId, firstName, lastName } },
      commandContext(req, deps.runtime),
    );
    sendPosition(res, result.position);
    res.json(await loadUserView(deps.store, userId));
  });
  return router;
}
