import { Router } from 'express';
import { z } from 'zod';
import { noRecord } from '@wagers/contracts/api/head-to-head';
import { currentUserId, requireUser } from '@wagers/platform/auth/sessions';
import { parseInput } from '@wagers/platform/http/validate';
import { readYourWrites } from '../consistency.ts';
import type { QueryServiceDeps } from '../deps.ts';
import { headToHead } from './queries.ts';

const READS = ['head-to-head'];
const personId = z.object({ userId: z.uuid('Not a user id') });

/**
 * GET /api/head-to-head (every person you finished a bet with) and
 * GET /api/head-to-head/{userId} (one record; all zeros when you never finished a bet together).
 * A record only counts bets the caller took part in, so it tells nobody anything new.
 */
export function headToHeadQueryRouter(deps: QueryServiceDeps): Router {
  const router = Router();
  router.get('/api/head-to-head', requireUser, readYourWrites(deps, READS), async (req, res) => {
    res.json(await headToHead(deps.pool, currentUserId(req), null));
  });
  router.get(
    '/api/head-to-head/:userId',
    requireUser,
    readYourWrites(deps, READS),
    async (req, res) => {
      const { userId } = parseInput(personId, req.params);
      const [record] = await headToHead(deps.pool, currentUserId(req), userId);
      res.json(record ?? noRecord(userId));
    },
  );
  return router;
}
