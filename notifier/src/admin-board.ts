import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import { Router } from 'express';
import { operatorAuth } from '@wagers/platform/http/operator-auth';

export const ADMIN_QUEUES_PATH = '/admin/queues';

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
