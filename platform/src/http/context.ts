import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../logger.ts';
import './types.ts';

const CORRELATION_HEADER = 'x-correlation-id';

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
      // Query strings can carry sign-in tokens, and headers carry cookies: log neither.
      req: (req: { method: string; url: string }) => ({
        method: req.method,
        url: req.url.split('?')[0],
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
  return [assign, http];
}
