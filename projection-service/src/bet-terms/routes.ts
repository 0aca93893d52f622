import { Router } from 'express';
import type { BetTerms } from '@wagers/contracts/api/bets';
import { currentUserId, requireUser } from '@wagers/platform/auth/sessions';
import { notFound } from '@wagers/platform/errors';
import { readYourWrites } from '../consistency.ts';
import type { QueryServiceDeps } from '../deps.ts';
import { isBetId } from '../bets/queries.ts';

interface TermsRow {
  report_stands: boolean;
  stands_at: Date | null;
  draw_offered_by: string | null;
  settled_by: BetTerms['settledBy'];
}

/** GET /api/bets/{id}/terms, for the bet's two participants only. */
export function betTermsQueryRouter(deps: QueryServiceDeps): Router {
  const router = Router();
  router.get(
    '/api/bets/:id/terms',
    requireUser,
    readYourWrites(deps, ['bet-terms']),
    async (req, res) => {
      const betId = String(req.params.id);
      const result = isBetId(betId)
        ? await deps.pool.query<TermsRow>(
            `SELECT report_stands, stands_at, draw_offered_by, settled_by FROM rm_bet_terms
             WHERE bet_id = $1 AND (creator_id = $2 OR opponent_id = $2)`,
            [betId, currentUserId(req)],
          )
        : { rows: [] };
      const row = result.rows[0];
      if (!row) throw notFound('Bet not found');
      const terms: BetTerms = {
        reportStands: row.report_stands,
        standsAt: row.stands_at?.toISOString() ?? null,
        drawOfferedBy: row.draw_offered_by,
        settledBy: row.settled_by,
      };
      res.json(terms);
    },
  );
  return router;
}
