import type { RequestHandler } from 'express';
import { isGlobalPosition, maxPosition, POSITION_HEADER } from '@wagers/contracts/position';
import { PROCESS_MANAGERS } from '@wagers/domain/process-managers';
import { unavailable } from '@wagers/platform/errors';
import { remaining, settleSession } from '@wagers/platform/projections/session-causality';
import type { QueryServiceDeps } from './deps.ts';
import '@wagers/platform/http/types';

const processManagers = [...PROCESS_MANAGERS];

/** How long a read of a read model still on its first build asks the caller to wait. */
const FIRST_BUILD_RETRY_SECONDS = 5;

/**
 * Read-your-writes for every client that keeps the session cookie: before answering, wait (at
 * most READ_YOUR_WRITES_TIMEOUT_MS in all) until the named projectors have passed the furthest
 * position written for the session (its own commands and what process managers did in answer),
 * and the highest position the client says it has seen. A read model that has no live build yet
 * (new to this deploy, its first build loading) answers 503 with when to try again.
 */
export function readYourWrites(
  deps: Pick<QueryServiceDeps, 'watcher' | 'sessions' | 'config'>,
  projectors: string[],
): RequestHandler {
  const { watcher, sessions } = deps;
  const timeoutMs = deps.config.READ_YOUR_WRITES_TIMEOUT_MS;
  return async (req, res, next) => {
    const deadline = Date.now() + timeoutMs;
    const header = req.header(POSITION_HEADER);
    const seen = header && isGlobalPosition(header) ? header : null;
    // One deadline for both waits: the process managers, then the projectors.
    const session = await settleSession({ watcher, sessions, processManagers }, req, deadline);
    const target = maxPosition(seen, session.position);
    let fresh = session.settled;
    if (target && fresh) {
      fresh = await watcher.waitFor(projectors, target, remaining(deadline));
    }
    // A read model new to this deploy has no tables to read until its first build takes over
    // (a wait above for the person's own write covers it, if the build is quick): not a fault,
    // and not for long.
    if (!(await watcher.haveLiveBuilds(projectors))) {
      throw unavailable(
        'This part of Wagers is still being prepared. Please try again in a moment.',
        FIRST_BUILD_RETRY_SECONDS,
      );
    }
    if (!fresh) res.setHeader('x-wagers-stale', '1');
    next();
  };
}
