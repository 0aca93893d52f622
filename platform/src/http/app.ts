import express, { type Express } from 'express';
import type { SessionStore } from '../auth/sessions.ts';
import type { Logger } from '../logger.ts';
import { requestContext } from './context.ts';

/** An Express app with what every service needs first: request ids, logs, the session. */
export function baseApp(logger: Logger, sessions: SessionStore): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(...requestContext(logger));
  app.use(sessions.middleware());
  return app;
}
