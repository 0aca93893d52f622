import express, { type Express } from 'express';
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
 * refusal of cross-site writes and of text the database cannot hold, the session on /api.
 */
export function baseApp(logger: Logger, sessions: SessionStore, edge: EdgeOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(requestContext(logger));
  app.use(securityHeaders(edge));
  app.use(pathAndQueryGuard);
  app.use(sameSiteOnly(edge.publicUrl));
  // Parsed here once, so every field of every body is checked before a route sees it.
  app.use('/api', express.json({ limit: '100kb' }), bodyGuard);
  // Only API calls need to know who is asking; pages, assets and health checks skip the lookup.
  app.use('/api', sessions.middleware());
  return app;
}
