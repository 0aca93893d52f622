import { Router } from 'express';
import { currentUserId, requireUser } from '@wagers/platform/auth/sessions';
import { notFound } from '@wagers/platform/errors';
import { readYourWrites } from '../consistency.ts';
import type { QueryServiceDeps } from '../deps.ts';
import { findSettlement, settleUp } from './queries.ts';

/** GET /api/settle-up (the dashboard card) and GET /api/bets/{id}/settlement (the bet page). */
export function settleUpQueryRouter(deps: QueryServiceDeps): Router {
  const router = Router();
  router.get(
    '/api/settle-up',
    requireUser,
    readYourWrites(deps, ['settle-up', 'users']),
    async (req, res) => {
      res.json(await settleUp(deps.pool, currentUserId(req)));
    },
  );
  router.get(
    '/api/bets/:id/settlement',
    requireUser,
    readYourWrites(deps, ['settle-up']),
    async (req, res) => {
      const settlement = await findSettlement(deps.pool, currentUserId(req), String(req.params.id));
      if (!settlement) throw notFound('Nothing to settle on this bet');
      res.json(settlement);
    },
  );
  return router;
}
