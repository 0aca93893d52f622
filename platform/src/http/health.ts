import { Router } from 'express';

export type ReadinessCheck = () => Promise<void>;

/** /healthz: the process answers. /readyz: every dependency answers. */
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
          await check();
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
