import express, { Router } from 'express';
import { apiDocsRouter } from './api-docs/routes.ts';
import { auditRouter } from './audit/routes.ts';
import { authRouter } from './auth/routes.ts';
import type { AvatarStores } from './avatar/create-store.ts';
import { avatarRouter } from './avatar/routes.ts';
import { betsRouter } from './bets/routes.ts';
import { leaveUnservedReads } from '@wagers/platform/http/routes';
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
export function commandRouter(deps: CommandServiceDeps, avatars: AvatarStores): Router {
  const features = Router();
  features.use(authRouter(deps));
  features.use(apiDocsRouter());
  features.use(friendsRouter(deps));
  features.use(invitesRouter(deps));
  features.use(smsInboundRouter(deps));
  features.use(profileRouter(deps));
  features.use(avatarRouter(deps, avatars));
  features.use(betsRouter(deps));
  features.use(auditRouter(deps));
  features.use(notificationsRouter(deps));

  const router = Router();
  // Most reads are the query side's. Parsing a body and awaiting causality are for writes, so a
  // read no feature answers has nothing to do here.
  router.use(leaveUnservedReads(features));
  router.use(express.json({ limit: '100kb' }));
  router.use('/api', awaitSessionCausality(deps));
  router.use(features);
  return router;
}
