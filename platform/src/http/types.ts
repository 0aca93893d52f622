import type { Logger } from '../logger.ts';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's own extension point
  namespace Express {
    interface Request {
      /** Set by the correlation middleware; also written into the metadata of every event. */
      correlationId: string;
      /** Set by the session middleware when the caller is signed in. */
      userId?: string;
      /** Log position of the writes that made the session (the sign-in), for read-your-writes. */
      sessionPosition?: string | null;
      /** The furthest of the session's writes a process manager may react to. */
      sessionReaction?: string | null;
      /** Which session row the request's cookie names, so a command can advance its position. */
      sessionTokenHash?: string;
      /** The session's reaction position the process managers are known to have answered. */
      sessionSettled?: string | null;
      /** performance.now() just before the session row was read. */
      sessionReadAt?: number;
      log: Logger;
    }
  }
}

export {};
