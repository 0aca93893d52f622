import { comparePositions, maxPosition, type GlobalPosition } from '@wagers/contracts/position';
import type { SessionStore } from '../auth/sessions.ts';
import type { ProjectionWatcher } from './watcher.ts';

export interface SessionRequest {
  sessionPosition?: string | null;
  sessionReaction?: string | null;
  sessionReadAt?: number;
  sessionSettled?: string | null;
  sessionTokenHash?: string;
}

/**
 * The furthest log position written for the request's session, once the process managers have
 * acted on everything of it they react to. A session's command may set off a process manager
 * whose writes then move the session on: so the managers must first have passed the session's
 * reaction position (its furthest write of a kind they react to), and if they had not done so
 * already before the session row was read, the row is read again. A row read after the managers
 * had passed its reaction position is remembered as settled (in this process's session cache),
 * so the next request with it neither waits nor reads it again.
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
  const readAt = req.sessionReadAt;
  if (!reaction || readAt === undefined) return { position: written, settled: true };
  const done = req.sessionSettled;
  if (done && comparePositions(done, reaction) >= 0) return { position: written, settled: true };
  if (watcher.reachedBefore(processManagers, reaction, readAt)) {
    sessions.settled(req, readAt, reaction);
    return { position: written, settled: true };
  }
  const settled = await watcher.waitFor(processManagers, reaction, remaining(deadline));
  const now = await sessions.reread(req);
  if (settled && now) sessions.settled(req, now.readAt, reaction);
  return { position: maxPosition(written, now?.position ?? null), settled };
}

/** Milliseconds left until `deadline` (a Date.now() time), never below zero. */
export function remaining(deadline: number): number {
  return Math.max(0, deadline - Date.now());
}
