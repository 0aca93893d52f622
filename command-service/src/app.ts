import express, { Router } from 'express';
import { authRouter } from './auth/routes.ts';
import type { CommandServiceDeps } from './deps.ts';

/**
 * Every mutating /api call and the sign-in routes. Feature routers register here; each parses
 * input with a contracts schema, builds a command and hands it to a decider.
 */
export function commandRouter(deps: CommandServiceDeps): Router {
  const router = Router();
  router.use(express.json({ limit: '100kb' }));
  router.use(authRouter(deps));
  return router;
}
