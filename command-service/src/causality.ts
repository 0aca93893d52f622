import type { RequestHandler } from 'express';
import { PROCESS_MANAGERS } from '@wagers/domain/process-managers';
import type { SessionStore } from '@wagers/platform/auth/sessions';
import type { Config } from '@wagers/platform/config';
import { settleSession } from '@wagers/platform/projections/session-causality';
import type { ProjectionWatcher } from '@wagers/platform/projections/watcher';
import '@wagers/platform/http/types';

const processManagers = [...PROCESS_MANAGERS];

/**
 * A command decides on what the session's earlier commands set off: the account a sign-in
 * registers, the bet an accepted invite joins. So before a signed-in command runs, the process
 * managers must have acted on everything the session wrote (at most READ_YOUR_WRITES_TIMEOUT_MS;
 * after that the command runs on what there is, and its rules answer).
 */
export function awaitSessionCausality(deps: {
  watcher: ProjectionWatcher;
  sessions: SessionStore;
  config: Pick<Config, 'READ_YOUR_WRITES_TIMEOUT_MS'>;
}): RequestHandler {
  const { watcher, sessions } = deps;
  const timeoutMs = deps.config.READ_YOUR_WRITES_TIMEOUT_MS;
  return async (req, _res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.sessionTokenHash) {
      await settleSession({ watcher, sessions, processManagers }, req, Date.now() + timeoutMs);
    }
    next();
  };
}
