import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { createLogger } from '../logger.ts';
import { problemHandler } from './problem.ts';

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  base: string;
  close(): Promise<void>;
}

/**
 * For specs of middleware and handlers: an Express app on a free local port with what the
 * services put around their routes that a handler relies on (a request logger, silent; the
 * problem details handler after the routes `mount` adds).
 */
export async function startTestServer(mount: (app: Express) => void): Promise<TestServer> {
  const logger = createLogger('silent');
  const app = express();
  app.use((req, _res, next) => {
    req.log = logger;
    next();
  });
  mount(app);
  app.use(problemHandler);
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
