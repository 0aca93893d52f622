import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import type { ErrorCode, Problem } from '@wagers/contracts/problem';
import { ConcurrencyError } from '../event-store/port.ts';
import { isDatabaseUnavailable } from '../db-errors.ts';
import { DomainError, unavailable } from '../errors.ts';
import './types.ts';

const statusOf: Record<ErrorCode, number> = {
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  concurrency_conflict: 409,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
};

const titleOf: Record<ErrorCode, string> = {
  validation_failed: 'Invalid request',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  conflict: 'Conflict',
  concurrency_conflict: 'Conflict',
  rate_limited: 'Too many requests',
  unavailable: 'Service unavailable',
  internal: 'Internal error',
};

export function problem(
  code: ErrorCode,
  detail: string,
  errors?: { field: string; message: string }[],
): Problem {
  return {
    type: `https://wagers.local/problems/${code}`,
    title: titleOf[code],
    status: statusOf[code],
    detail,
    message: detail,
    code,
    ...(errors ? { errors } : {}),
  };
}

export function zodFieldErrors(error: ZodError): { field: string; message: string }[] {
  return error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.join('.') : '(body)',
    message: issue.message,
  }));
}

function describeFields(errors: { field: string; message: string }[]): string {
  return errors.map((e) => `${e.field}: ${e.message}`).join('; ');
}

/** How long a caller is asked to wait when the database is away (a restart, a failover). */
const DATABASE_RETRY_SECONDS = 5;

/**
 * The database out of reach for now is not the request's fault nor a fault of ours to hide
 * behind "something went wrong": 503, with when to try again.
 */
function asDomainError(error: unknown): unknown {
  return isDatabaseUnavailable(error)
    ? unavailable(
        'The service is briefly unavailable. Please try again in a moment.',
        DATABASE_RETRY_SECONDS,
      )
    : error;
}

function toProblem(error: unknown): Problem {
  if (error instanceof DomainError) return problem(error.code, error.message, error.fieldErrors);
  if (error instanceof ZodError) {
    const errors = zodFieldErrors(error);
    return problem('validation_failed', describeFields(errors), errors);
  }
  if (error instanceof ConcurrencyError) {
    return problem(
      'concurrency_conflict',
      'Someone else changed this at the same moment. Please try again.',
    );
  }
  if (error instanceof SyntaxError && 'body' in error) {
    return problem('validation_failed', 'The request body is not valid JSON', [
      { field: '(body)', message: 'Not valid JSON' },
    ]);
  }
  if (
    typeof error === 'object' &&
    error !== null &&
    'type' in error &&
    error.type === 'entity.too.large'
  ) {
    return problem('validation_failed', 'The request body is too large');
  }
  if (isClientHttpError(error)) {
    // What the body parser refuses (an unsupported charset or encoding, a malformed body).
    return problem('validation_failed', error.message, [
      { field: '(body)', message: error.message },
    ]);
  }
  return problem('internal', 'Something went wrong on our side. Please try again.');
}

/** An http-errors 4xx that is safe to show (expose), as the body parser throws them. */
function isClientHttpError(error: unknown): error is { status: number; message: string } {
  if (typeof error !== 'object' || error === null) return false;
  const { status, expose } = error as { status?: unknown; expose?: unknown };
  return expose === true && typeof status === 'number' && status >= 400 && status < 500;
}

/** Turns every error into RFC 7807 problem details; only unexpected ones are logged as errors. */
export const problemHandler: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  const answered = asDomainError(error);
  const body = toProblem(answered);
  if (answered instanceof DomainError && answered.retryAfterSeconds !== undefined)
    res.setHeader('retry-after', String(answered.retryAfterSeconds));
  if (body.status >= 500) req.log.error({ err: error }, 'request failed');
  else req.log.info({ problem: body.code, status: body.status }, body.detail);
  res.status(body.status).type('application/problem+json').json(body);
};

export const notFoundHandler: RequestHandler = (_req, res) => {
  res.status(404).type('application/problem+json').json(problem('not_found', 'No such API route'));
};
