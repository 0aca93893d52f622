import { maxPosition, type GlobalPosition } from '@wagers/contracts/position';
import type { SessionStore } from '../auth/sessions.ts';
import type { ProjectionWatcher } from './watcher.ts';

export interface SessionRequest {
  sessionPosition?: string | null;
  sessionReaction?: string | null;
  sessionReadAt?: number;
  sessionTokenHash?: string;
}

/**
 * The furthest log position written for the request's session, once the process managers have
 * acted on everything of it they react to. A session's command may set off a process manager
 * whose writes then move the session on: so the managers must first have passed the session's
 * reaction position (its furthest write of a kind they react to), and if they had not done so
 * already before the session row was read, the row is read again.
 * `settled` is false when the managers did not get there by `deadline` (a Date.now() time, shared
 * with whatever the request waits for next).
 */
export async function settleSession(
  deps: { watcher: ProjectionWatcher; sessions: SessionStore; processManagers: string[] },
  req: SessionRequest,
  deadline: number,
): Promise<{ position: GlobalPosition | null; settled: boolean }> {
  const { watcher, sessions, processManagers } = deps;
  const written = req.sessionPosition ?? null;
  const reaction = req.sessionReaction ?? null;
  if (!reaction || req.sessionReadAt === undefined) return { position: written, settled: true };
  if (watcher.reachedBefore(processManagers, reaction, req.sessionReadAt)) {
    return { position: written, settled: true };
  }
  const settled = await watcher.waitFor(processManagers, reaction, remaining(deadline));
  return { position: maxPosition(written, await sessions.currentPosition(req)), settled };
}

/** Milliseconds left until `deadline` (a Date.now() time), never below zero. */
export function remaining(deadline: number): number {
  return Math.max(0, deadline - Date.now());
}
