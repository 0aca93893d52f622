import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../logger.ts';
import './types.ts';

const CORRELATION_HEADER = 'x-correlation-id';

/**
 * The path as it may be logged: an invite code in it works like a password for the invitation
 * (GET /api/invites/:code shows it, POST .../accept takes it), so it is cut out like a token.
 */
export function loggablePath(url: string): string {
  return url.split('?')[0]!.replace(/(\/invites?\/)[^/]+/g, '$1[redacted]');
}

/** Probes that would fill the log: they get no line of their own. */
const UNLOGGED = new Set(['/healthz', '/readyz']);

/**
 * Gives each request a correlation id (the caller's, when it sends a sane one) and a logger that
 * carries it (made the first time a route logs); the id goes back in the response and into
 * every event the request appends. When the response is done, one line at info says what was
 * asked (method, path without its query), the status and the time taken: "request completed",
 * or "request errored" with the error for a 5xx. Headers, cookies and query strings are never
 * logged (they can carry sign-in tokens).
 */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = Date.now();
    const incoming = req.header(CORRELATION_HEADER);
    const correlationId = incoming && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    req.correlationId = correlationId;
    res.setHeader(CORRELATION_HEADER, correlationId);
    const bindings = { req: { method: req.method, url: loggablePath(req.url) }, correlationId };
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', {
      get: () => (child ??= logger.child(bindings)),
      configurable: true,
    });
    if (!UNLOGGED.has(req.url)) {
      // 'close' comes once, after the last byte or when the caller went away first.
      res.once('close', () => {
        const line = {
          ...bindings,
          res: { statusCode: res.statusCode },
          responseTime: Date.now() - started,
        };
        if (res.statusCode < 500) logger.info(line, 'request completed');
        else
          logger.info(
            { ...line, err: new Error(`failed with status code ${res.statusCode}`) },
            'request errored',
          );
      });
    }
    next();
  };
}
