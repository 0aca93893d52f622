import express, { type Express, type RequestHandler } from 'express';
import type { SessionStore } from '../auth/sessions.ts';
import type { Logger } from '../logger.ts';
import { requestContext } from './context.ts';
import { bodyGuard, pathAndQueryGuard } from './input-guard.ts';
import { sameSiteOnly } from './same-site.ts';
import { securityHeaders, type SecurityHeaderOptions } from './security-headers.ts';

export interface EdgeOptions extends SecurityHeaderOptions {
  /** This site's origin as links name it; requests from any other page are refused. */
  publicUrl: () => string;
}

/**
 * An Express app with what every service needs first: request ids, logs, security headers, the
 * refusal of cross-site writes and of text the database cannot hold, answers under /api kept by
 * no shared cache, the session on /api.
 */
export function baseApp(logger: Logger, sessions: SessionStore, edge: EdgeOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(requestContext(logger));
  app.use(securityHeaders(edge));
  app.use(pathAndQueryGuard);
  app.use(sameSiteOnly(edge.publicUrl));
  app.use('/api', privateAnswers);
  // Parsed here once, so every field of every body is checked before a route sees it.
  app.use('/api', express.json({ limit: '100kb' }), bodyGuard);
  // Only API calls need to know who is asking; pages, assets and health checks skip the lookup.
  app.use('/api', sessions.middleware());
  return app;
}

/** Pages that carry a sign-in link's token or a person's unsubscribe link: kept by no cache. */
const UNCACHED_PAGES = /^\/(login|logout|notifications\/unsubscribe)(\/|$)/;

/**
 * Every answer under /api is someone's own (their bets, their profile) or depends on who asks:
 * no shared cache may keep it or serve it to another, and a browser asks again each time (an
 * ETag still answers 304). A page with a link's token is not kept at all.
 */
const privateAnswers: RequestHandler = (req, res, next) => {
  res.set('Cache-Control', UNCACHED_PAGES.test(req.path) ? 'no-store' : 'private, no-cache');
  res.vary('Cookie');
  next();
};
