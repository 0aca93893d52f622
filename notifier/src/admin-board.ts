import { createHash, timingSafeEqual } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import { Router, type RequestHandler } from 'express';

export const ADMIN_QUEUES_PATH = '/admin/queues';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** HTTP basic auth against one operator credential, compared in constant time. */
export function operatorAuth(user: string, password: string): RequestHandler {
  const expected = digest(`${user}:${password}`);
  return (req, res, next) => {
    const header = req.header('authorization') ?? '';
    const encoded = /^Basic\s+(\S+)$/i.exec(header)?.[1];
    const given = encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
    if (encoded && timingSafeEqual(digest(given), expected)) {
      next();
      return;
    }
    res.setHeader('WWW-Authenticate', 'Basic realm="Wagers operators", charset="UTF-8"');
    res.status(401).type('text/plain').send('Operator credentials required');
  };
}

/**
 * bull-board at /admin/queues: the failed set, where an operator sees a job that kept failing and
 * retries it. Mounted only when an operator password is configured.
 */
export function adminBoardRouter(
  queues: Queue[],
  credential: { user: string; password: string },
): Router {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(ADMIN_QUEUES_PATH);
  createBullBoard({ queues: queues.map((queue) => new BullMQAdapter(queue)), serverAdapter });
  const router = Router();
  router.use(
    ADMIN_QUEUES_PATH,
    operatorAuth(credential.user, credential.password),
    serverAdapter.getRouter() as Router,
  );
  return router;
}
