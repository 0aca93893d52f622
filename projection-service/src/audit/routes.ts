import { Router, type RequestHandler } from 'express';
import { auditSearchQuerySchema, auditTrailQuerySchema } from '@wagers/contracts/api/audit';
import { holdsAuditorRole } from '@wagers/domain/auditors/auditor';
import { notFound } from '@wagers/platform/errors';
import { parseInput } from '@wagers/platform/http/validate';
import { readYourWrites } from '../consistency.ts';
import type { QueryServiceDeps } from '../deps.ts';
import { auditTrail, searchBets } from './queries.ts';

/**
 * Anyone who is not an auditor, signed out included, gets the 404 of an unknown path. The role is
 * read from its own stream, as the command service's audit calls read it, not from rm_auditors:
 * a revocation holds from the next call on, however far behind the audit projector is.
 */
function requireAuditor(deps: QueryServiceDeps): RequestHandler {
  return async (req, _res, next) => {
    if (!req.userId || !(await holdsAuditorRole(deps.store, req.userId))) {
      throw notFound('Not found');
    }
    next();
  };
}

/** An auditor's search for bets and the trail of auditors' looks, from read models. */
export function auditQueryRouter(deps: QueryServiceDeps): Router {
  const router = Router();
  // The role first: anyone else is refused at once, as for an unknown path, without waiting for
  // the read models an auditor's answer needs.
  router.use('/api/audit', requireAuditor(deps), readYourWrites(deps, ['audit']));
  router.get('/api/audit/bets', readYourWrites(deps, ['bets', 'users']), async (req, res) => {
    res.json(await searchBets(deps.pool, parseInput(auditSearchQuerySchema, req.query)));
  });
  router.get('/api/audit/trail', async (req, res) => {
    const { betId } = parseInput(auditTrailQuerySchema, req.query);
    res.json(await auditTrail(deps.pool, betId ?? null));
  });
  return router;
}
