import { Router } from 'express';
import { activityQuerySchema } from '@wagers/contracts/api/activity';
import { currentUserId, requireUser } from '@wagers/platform/auth/sessions';
import { parseInput } from '@wagers/platform/http/validate';
import { readYourWrites } from '../consistency.ts';
import type { QueryServiceDeps } from '../deps.ts';
import { recentActivity } from './queries.ts';

/** GET /api/activity?limit=N: the caller's own activity, newest first. */
export function activityQueryRouter(deps: QueryServiceDeps): Router {
  const router = Router();
  router.get(
    '/api/activity',
    requireUser,
    readYourWrites(deps, ['activity', 'users']),
    async (req, res) => {
      const { limit } = parseInput(activityQuerySchema, req.query);
      res.json(await recentActivity(deps.pool, currentUserId(req), limit));
    },
  );
  return router;
}
