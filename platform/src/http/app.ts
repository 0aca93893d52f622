import express, { type Express } from 'express';
import type { SessionStore } from '../auth/sessions.ts';
import type { Logger } from '../logger.ts';
import { requestContext } from './context.ts';

/** An Express app with what every service needs first: request ids, logs, the session on /api. */
export function baseApp(logger: Logger, sessions: SessionStore): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(...requestContext(logger));
  // Only API calls need to know who is asking; pages, assets and health checks skip the lookup.
  app.use('/api', sessions.middleware());
  return app;
}
