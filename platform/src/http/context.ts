import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
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

/**
 * Gives each request a correlation id (the caller's, when it sends a sane one) and a child logger
 * that carries it; the id goes back in the response and into every event the request appends.
 */
export function requestContext(logger: Logger): RequestHandler[] {
  const assign: RequestHandler = (req, res, next) => {
    const incoming = req.header(CORRELATION_HEADER);
    req.correlationId = incoming && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    res.setHeader(CORRELATION_HEADER, req.correlationId);
    next();
  };
  const http = pinoHttp({
    logger,
    genReqId: (req) => (req as unknown as Express.Request).correlationId,
    customProps: (req) => ({ correlationId: (req as unknown as Express.Request).correlationId }),
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
    serializers: {
      // Query strings can carry sign-in tokens, paths invite codes, headers cookies: log none.
      req: (req: { method: string; url: string }) => ({
        method: req.method,
        url: loggablePath(req.url),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
  return [assign, http];
}
