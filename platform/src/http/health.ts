import { Router } from 'express';

export type ReadinessCheck = () => Promise<void>;

/** A dependency that has not answered in this long is as good as down. */
const CHECK_TIMEOUT_MS = 800;

/** What /readyz says of a check that failed: never the error itself (hosts, users, addresses). */
export const NO_ANSWER = `no answer within ${CHECK_TIMEOUT_MS} ms`;
export const FAILED = 'failed';

class NoAnswer extends Error {}

function withinDeadline(check: ReadinessCheck): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new NoAnswer(NO_ANSWER)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([check(), deadline]).finally(() => clearTimeout(timer));
}

/**
 * /healthz: the process answers. /readyz: every dependency answers, within a second; a failed
 * check is named, its error only logged.
 */
export function healthRouter(checks: Record<string, ReadinessCheck>): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (req, res) => {
    const results: Record<string, string> = {};
    let ready = true;
    await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          await withinDeadline(check);
          results[name] = 'ok';
        } catch (error) {
          ready = false;
          // Anyone may ask: the answer says which part is down, the log why.
          results[name] = error instanceof NoAnswer ? NO_ANSWER : FAILED;
          req.log.warn({ err: error, check: name }, 'readiness check failed');
        }
      }),
    );
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', checks: results });
  });
  return router;
}
