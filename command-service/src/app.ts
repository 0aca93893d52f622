import express, { Router } from 'express';
import { apiDocsRouter } from './api-docs/routes.ts';
import { auditRouter } from './audit/routes.ts';
import { authRouter } from './auth/routes.ts';
import { createAvatarStore } from './avatar/create-store.ts';
import { avatarRouter } from './avatar/routes.ts';
import { betsRouter } from './bets/routes.ts';
import { awaitSessionCausality } from './causality.ts';
import type { CommandServiceDeps } from './deps.ts';
import { friendsRouter } from './friends/routes.ts';
import { invitesRouter } from './invites/routes.ts';
import { smsInboundRouter } from './invites/sms-inbound.ts';
import { profileRouter } from './profile/routes.ts';
import { notificationsRouter } from './notifications/routes.ts';

/**
 * Every mutating /api call and the sign-in routes. Feature routers register here; each parses
 * input with a contracts schema, builds a command and hands it to a decider.
 */
export function commandRouter(deps: CommandServiceDeps): Router {
  const router = Router();
  router.use(express.json({ limit: '100kb' }));
  router.use('/api', awaitSessionCausality(deps));
  router.use(authRouter(deps));
  router.use(apiDocsRouter());
  router.use(friendsRouter(deps));
  router.use(invitesRouter(deps));
  router.use(smsInboundRouter(deps));
  const avatars = createAvatarStore(deps);
  router.use(profileRouter(deps, avatars.store));
  router.use(avatarRouter(deps, avatars));
  router.use(betsRouter(deps));
  router.use(auditRouter(deps));
  router.use(notificationsRouter(deps));
  return router;
}
