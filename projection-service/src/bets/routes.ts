import { Router, type Request } from 'express';
import { currentUserId, requireUser } from '@wagers/platform/auth/sessions';
import { notFound } from '@wagers/platform/errors';
import {
  prepareJson,
  sendPreparedJson,
  type JsonText,
  type PreparedJson,
} from '@wagers/platform/http/json-text';
import { ReadCache, type StatedRead } from '@wagers/platform/projections/read-cache';
import { readYourWrites } from '../consistency.ts';
import type { QueryServiceDeps } from '../deps.ts';
import { betHistory } from './history.ts';
import { BET_READS, betStats, findBet, listBets } from './queries.ts';

/**
 * Stats count friendships too (not those with a deleted account), so their reads wait for those
 * projectors as well.
 */
const STATS_READS = ['bets', 'friends', 'users'];
/** The most of the bets' JSON kept for answering again, in bytes. */
const KEPT_BYTES = 32 << 20;

export function betsQueryRouter(deps: QueryServiceDeps): Router {
  const router = Router();
  // A list or a bet, kept while the bets and users read models stay where its read found them.
  const kept = new ReadCache<PreparedJson<unknown>>(deps.watcher, BET_READS, {
    maxAgeMs: deps.config.READ_CACHE_MS,
    maxSize: KEPT_BYTES,
    sizeOf: (json) => json.body.length,
  });
  const prepared = (req: Request, read: StatedRead<JsonText<unknown>> | null) =>
    read && { value: prepareJson(req, read.value), state: read.state };

  router.get('/api/bets', requireUser, readYourWrites(deps, BET_READS), async (req, res) => {
    const viewer = currentUserId(req);
    const list = await kept.get(`list ${viewer}`, async () =>
      prepared(req, await listBets(deps.pool, viewer)),
    );
    sendPreparedJson(res, list!);
  });
  router.get('/api/bets/:id', requireUser, readYourWrites(deps, BET_READS), async (req, res) => {
    const viewer = currentUserId(req);
    const id = String(req.params.id);
    const bet = await kept.get(`bet ${viewer} ${id}`, async () =>
      prepared(req, await findBet(deps.pool, viewer, id)),
    );
    if (!bet) throw notFound('Bet not found');
    sendPreparedJson(res, bet);
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
