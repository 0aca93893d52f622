import { Router } from 'express';
import { currentUserId, requireUser } from '@wagers/platform/auth/sessions';
import { notFound } from '@wagers/platform/errors';
import { sendJsonText } from '@wagers/platform/http/json-text';
import { readYourWrites } from '../consistency.ts';
import type { QueryServiceDeps } from '../deps.ts';
import { betHistory } from './history.ts';
import { betStats, findBet, listBets } from './queries.ts';

/** Bets show users and friendships too, so reads wait for those projectors as well. */
const BET_READS = ['bets', 'users'];
const STATS_READS = ['bets', 'friends'];

export function betsQueryRouter(deps: QueryServiceDeps): Router {
  const router = Router();
  router.get('/api/bets', requireUser, readYourWrites(deps, BET_READS), async (req, res) => {
    sendJsonText(res, await listBets(deps.pool, currentUserId(req)));
  });
  router.get('/api/bets/:id', requireUser, readYourWrites(deps, BET_READS), async (req, res) => {
    const bet = await findBet(deps.pool, currentUserId(req), String(req.params.id));
    if (!bet) throw notFound('Bet not found');
    sendJsonText(res, bet);
  });
  router.get(
    '/api/bets/:id/history',
    requireUser,
    readYourWrites(deps, BET_READS),
    async (req, res) => {
      const history = await betHistory(deps.pool, currentUserId(req), String(req.params.id));
      if (!history) throw notFound('Bet not found');
      res.json(history);
    },
  );
  router.get('/api/stats', requireUser, readYourWrites(deps, STATS_READS), async (req, res) => {
    res.json(await betStats(deps.pool, currentUserId(req)));
  });
  return router;
}
