import { Router } from 'express';

export type ReadinessCheck = () => Promise<void>;

/** A dependency that has not answered in this long is as good as down. */
const CHECK_TIMEOUT_MS = 800;

function withinDeadline(check: ReadinessCheck): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer in ${CHECK_TIMEOUT_MS} ms`)),
      CHECK_TIMEOUT_MS,
    );
  });
  return Promise.race([check(), deadline]).finally(() => clearTimeout(timer));
}

/** /healthz: the process answers. /readyz: every dependency answers, within a second. */
export function healthRouter(checks: Record<string, ReadinessCheck>): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const results: Record<string, string> = {};
    let ready = true;
    await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          await withinDeadline(check);
          results[name] = 'ok';
        } catch (error) {
          ready = false;
          results[name] = error instanceof Error ? error.message : 'failed';
        }
      }),
    );
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', checks: results });
  });
  return router;
}
