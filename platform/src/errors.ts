import type { ErrorCode } from '@wagers/contracts/problem';

/**
 * A rule of the domain said no. Deciders throw these; one HTTP middleware turns them into
 * problem details with the status that fits the kind.
 */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: Exclude<ErrorCode, 'internal'>,
    message: string,
    readonly fieldErrors?: { field: string; message: string }[],
    /** When to try again, for a refusal that passes (429, 503): sent as Retry-After. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const notFound = (message: string) => new DomainError('not_found', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const unauthorized = (message = 'Sign in to continue') =>
  new DomainError('unauthorized', message);
export const invalid = (field: string, message: string) =>
  new DomainError('validation_failed', message, [{ field, message }]);
/** A dependency is down for now: 503, try again in a little while. */
export const unavailable = (message: string, retryAfterSeconds = 30) =>
  new DomainError('unavailable', message, undefined, retryAfterSeconds);
