import type { Request, Response } from 'express';
import { POSITION_HEADER, type GlobalPosition } from '@wagers/contracts/position';
import type { SessionStore } from '@wagers/platform/auth/sessions';
import type { CommandContext } from '@wagers/platform/decider';
import type { Runtime } from '@wagers/platform/runtime';
import { REACTION_TRIGGERS } from './process-managers/start.ts';
import '@wagers/platform/http/types';

/** Who, when and why for the events a request appends. */
export function commandContext(req: Request, runtime: Runtime): CommandContext {
  return {
    actorId: req.userId ?? null,
    correlationId: req.correlationId,
    causationId: null,
    now: runtime.now(),
    newId: runtime.newId,
  };
}

/**
 * Tells the session where its write landed, so its next reads wait for it in any tab and through
 * any client that keeps the cookie; the header serves clients that track positions themselves.
 * Given the events appended, it also says whether a process manager may react to them; without
 * them, it is taken that one may.
 */
export async function recordWrite(
  sessions: SessionStore,
  req: Request,
  res: Response,
  position: GlobalPosition | null,
  appended?: readonly { type: string }[],
): Promise<void> {
  if (!position) return;
  const reaction = !appended || appended.some((event) => REACTION_TRIGGERS.has(event.type));
  await sessions.advance(req, position, { reaction });
  res.setHeader(POSITION_HEADER, position);
}
