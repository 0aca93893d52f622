import { Router } from 'express';
import { auditQueryRouter } from './audit/routes.ts';
import { betsQueryRouter } from './bets/routes.ts';
import type { QueryServiceDeps } from './deps.ts';
import { friendsQueryRouter } from './friends/routes.ts';
import { invitesQueryRouter } from './invites/routes.ts';
import { searchQueryRouter } from './search/routes.ts';
import { settleUpQueryRouter } from './settle-up/routes.ts';
import { headToHeadQueryRouter } from './head-to-head/routes.ts';
import { activityQueryRouter } from './activity/routes.ts';
import { betTermsQueryRouter } from './bet-terms/routes.ts';
import { notificationPreferencesQueryRouter } from './notification-preferences/routes.ts';
import { usersQueryRouter } from './users/routes.ts';

/** Every GET /api call, answered from read models. */
export function queryRouter(deps: QueryServiceDeps): Router {
  const router = Router();
  router.use(usersQueryRouter(deps));
  router.use(betsQueryRouter(deps));
  router.use(friendsQueryRouter(deps));
  router.use(invitesQueryRouter(deps));
  router.use(searchQueryRouter(deps));
  router.use(auditQueryRouter(deps));
  router.use(settleUpQueryRouter(deps));
  router.use(headToHeadQueryRouter(deps));
  router.use(activityQueryRouter(deps));
  router.use(betTermsQueryRouter(deps));
  router.use(notificationPreferencesQueryRouter(deps));
  return router;
}
