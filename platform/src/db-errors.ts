import pg from 'pg';

/** Node.js's codes for a connection refused, cut or timed out on the way to the server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * What node-postgres throws, without a code, when a connection ends under a query, was already
 * lost, or could not be had in time.
 */
const LOST_CONNECTION = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
];

/** The server shutting down (by an operator, after a crash) or not yet taking connections. */
const SERVER_NOT_ANSWERING = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * Whether an error says the database cannot be reached or is not taking work for now: the
 * connection refused, cut or timed out, or the server shutting down, starting up or full of
 * connections. What was asked may well succeed in a moment; it was not refused for its own sake.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof pg.DatabaseError) {
    const code = error.code ?? '';
    return code.startsWith('08') || SERVER_NOT_ANSWERING.has(code);
  }
  if (!(error instanceof Error)) return false;
  const { code } = error as { code?: unknown };
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  return LOST_CONNECTION.some((text) => error.message.startsWith(text));
}

/** SQLSTATE classes of the server's own troubles: out of resources, operator, system. */
const SERVER_TROUBLE_CLASSES = new Set(['53', '57', '58']);
/** Transactions that lost a race (serialization, deadlock, a lock not had). */
const LOST_RACES = new Set(['40001', '40P01', '55P03']);

/**
 * Whether work failed for the database's sake rather than for what it was given: unavailable
 * (above), out of disk or memory, stopped by an operator, or a transaction that lost a race.
 * The same work, sent again later, can succeed.
 */
export function isDatabaseTrouble(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  const code = error instanceof pg.DatabaseError ? (error.code ?? '') : '';
  return SERVER_TROUBLE_CLASSES.has(code.slice(0, 2)) || LOST_RACES.has(code);
}
