import type { Request, Response } from 'express';
import { POSITION_HEADER, type GlobalPosition } from '@wagers/contracts/position';
import type { CommandContext } from '@wagers/platform/decider';
import type { Runtime } from '@wagers/platform/runtime';
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

/** Tells the client where its write landed, so its next reads can wait for it. */
export function sendPosition(res: Response, position: GlobalPosition | null): void {
  if (position) res.setHeader(POSITION_HEADER, position);
}
