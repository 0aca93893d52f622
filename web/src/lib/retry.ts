import { ApiError, serverMessage } from './api-client.ts';

/** How long a read still being prepared is tried again before its screen shows the failure. */
const PREPARED_WITHIN_MS = 2 * 60 * 1000;
const SHORTEST_WAIT_MS = 1000;
const LONGEST_WAIT_MS = 30 * 1000;

/** The wait a 503 asked for, within bounds; null for any other failure. */
function askedWait(error: unknown): number | null {
  if (!(error instanceof ApiError) || error.status !== 503 || error.retryAfterMs === null) {
    return null;
  }
  return Math.min(Math.max(error.retryAfterMs, SHORTEST_WAIT_MS), LONGEST_WAIT_MS);
}

/**
 * The queries' retry policy. A read answered 503 with `Retry-After` (a read model that is still
 * being prepared, as while a deploy builds one for the first time) is asked again when the server
 * says, for up to two minutes, while the screen keeps showing that it is loading. Every other
 * failure is shown at once, as the product has always done.
 */
export const retryWhilePrepared = {
  retry: (failureCount: number, error: unknown): boolean => {
    const wait = askedWait(error);
    return wait !== null && failureCount * wait < PREPARED_WITHIN_MS;
  },
  retryDelay: (_attempt: number, error: unknown): number => askedWait(error) ?? SHORTEST_WAIT_MS,
};

/** What a loading state says while a read waits to be asked again, when the server did not say. */
export const PREPARING_SENTENCE =
  'This view is being prepared after an update. It will appear shortly.';

/**
 * Why a read is still loading, for its loading state to say: while the last answer was a 503
 * that said when to try again (so the query is waiting to ask again), the server's own sentence,
 * or the product's when it sent none; null for a read that is simply loading.
 */
export function preparingNotice(failure: unknown): string | null {
  if (askedWait(failure) === null) return null;
  return serverMessage(failure) ?? PREPARING_SENTENCE;
}
