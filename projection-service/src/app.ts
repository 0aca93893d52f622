import { Router } from 'express';
import type { QueryServiceDeps } from './deps.ts';
import { usersQueryRouter } from './users/routes.ts';

/** Every GET /api call, answered from read models. */
export function queryRouter(deps: QueryServiceDeps): Router {
  const router = Router();
  router.use(usersQueryRouter(deps));
  return router;
}
