import { Router, type RequestHandler } from 'express';
import { auditSearchQuerySchema, auditTrailQuerySchema } from '@wagers/contracts/api/audit';
import { notFound } from '@wagers/platform/errors';
import { parseInput } from '@wagers/platform/http/validate';
import { readYourWrites } from '../consistency.ts';
import type { QueryServiceDeps } from '../deps.ts';
import { isAuditor } from './auditors.ts';
import { auditTrail, searchBets } from './queries.ts';

/** Anyone who is not an auditor, signed out included, gets the 404 of an unknown path. */
function requireAuditor(deps: QueryServiceDeps): RequestHandler {
  return async (req, _res, next) => {
    if (!req.userId || !(await isAuditor(deps.pool, req.userId))) throw notFound('Not found');
    next();
  };
}

/** An auditor's search for bets and the trail of auditors' looks, from read models. */
export function auditQueryRouter(deps: QueryServiceDeps): Router {
  const router = Router();
  router.use('/api/audit', readYourWrites(deps, ['audit']), requireAuditor(deps));
  router.get('/api/audit/bets', readYourWrites(deps, ['bets', 'users']), async (req, res) => {
    res.json(await searchBets(deps.pool, parseInput(auditSearchQuerySchema, req.query)));
  });
  router.get('/api/audit/trail', async (req, res) => {
    const { betId } = parseInput(auditTrailQuerySchema, req.query);
    res.json(await auditTrail(deps.pool, betId ?? null));
  });
  return router;
}
