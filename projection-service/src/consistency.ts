import type { RequestHandler } from 'express';
import { isGlobalPosition, maxPosition, POSITION_HEADER } from '@wagers/contracts/position';
import type { ProjectionWatcher } from '@wagers/platform/projections/watcher';
import '@wagers/platform/http/types';

export const READ_YOUR_WRITES_TIMEOUT_MS = 2000;

/**
 * Read-your-writes: before answering, wait (at most 2 s) until the named projectors have passed
 * the highest position the client has seen, and the one its session was made at.
 */
export function readYourWrites(watcher: ProjectionWatcher, projectors: string[]): RequestHandler {
  return async (req, res, next) => {
    const header = req.header(POSITION_HEADER);
    const seen = header && isGlobalPosition(header) ? header : null;
    const target = maxPosition(seen, req.sessionPosition ?? null);
    if (target) {
      const reached = await watcher.waitFor(projectors, target, READ_YOUR_WRITES_TIMEOUT_MS);
      if (!reached) res.setHeader('x-wagers-stale', '1');
    }
    next();
  };
}
