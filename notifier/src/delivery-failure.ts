import type { Logger } from '@wagers/platform/logger';

/**
 * What a failed delivery may say of itself. A mail server's or the text message service's own
 * message often quotes the address or number it refused ("550 5.1.1 <bo@example.com>: Recipient
 * address rejected"), so only its codes go into the log, the event log and the queue's record.
 */
interface DeliveryError {
  /** An SMTP reply code (nodemailer). */
  responseCode?: unknown;
  /** An HTTP status (the text message service's API). */
  status?: unknown;
  /** The service's own error code. */
  code?: unknown;
  /** The SMTP server's reply line (nodemailer), e.g. `550 5.1.1 <bo@example.com>: unknown`. */
  response?: unknown;
  message?: unknown;
  name?: unknown;
}

/** SMTP replies that refuse one recipient's mailbox, when their enhanced code says so (5.1.x). */
const RECIPIENT_SMTP_CODES = new Set([550, 551, 553]);
/** SMTP replies about this sender's login or connection: the account's problem, not the recipient's. */
const ACCOUNT_SMTP_CODES = new Set([454, 530, 534, 535, 538]);
/**
 * Twilio error codes about the number a message was for: not a valid number (21211, 21217), not
 * reachable by text (21612, 21614), unsubscribed by STOP (21610). A region the account has not
 * enabled (21408) is the account's setting, so not here.
 */
const RECIPIENT_TWILIO_CODES = new Set([21211, 21217, 21610, 21612, 21614]);

/**
 * What a failed delivery means for retrying it:
 * - `recipient`: this address or number is refused for good (a retry will not help);
 * - `account`: the service refused our credentials or settings (a bad or rotated SMTP password or
 *   Twilio token, an account suspended): every message fails alike until an operator acts, so it
 *   is retried, never recorded against the recipient;
 * - `transient`: anything else (a 4xx SMTP reply, Twilio's 429 or 5xx, a lost connection).
 */
export function deliveryFailureKind(error: unknown): 'recipient' | 'account' | 'transient' {
  if (!fromService(error)) {
    const code = typeof error === 'object' && error !== null ? (error as DeliveryError).code : null;
    return code === 'EAUTH' ? 'account' : 'transient';
  }
  if (typeof error.responseCode === 'number') {
    if (ACCOUNT_SMTP_CODES.has(error.responseCode) || error.code === 'EAUTH') return 'account';
    if (!RECIPIENT_SMTP_CODES.has(error.responseCode)) return 'transient';
    const reply = typeof error.response === 'string' ? error.response : String(error.message);
    return /(^|\D)5\.1\.\d{1,3}(\D|$)/.test(reply) ? 'recipient' : 'transient';
  }
  if (error.status === 401 || error.status === 403) return 'account';
  if (typeof error.code === 'number' && RECIPIENT_TWILIO_CODES.has(error.code)) return 'recipient';
  return 'transient';
}

const codeOf = (value: unknown) =>
  typeof value === 'number' || (typeof value === 'string' && /^[\w.-]{1,40}$/.test(value))
    ? String(value)
    : null;

/** Whether the error came from the service a message was handed to, rather than from this code. */
function fromService(error: unknown): error is DeliveryError {
  if (typeof error !== 'object' || error === null) return false;
  const { responseCode, status } = error as DeliveryError;
  return typeof responseCode === 'number' || typeof status === 'number';
}

/** A reason to record for a delivery that failed, naming no address or number. */
export function deliveryFailureReason(error: unknown): string {
  if (!fromService(error)) return 'Delivery failed';
  const code = codeOf(error.code);
  if (typeof error.responseCode === 'number')
    return `The mail server refused the message (${error.responseCode}${code ? `, ${code}` : ''})`;
  return `The text message service refused the message (${String(error.status)}${code ? `, error ${code}` : ''})`;
}

/**
 * An error as the log may hold it: a service's refusal by its codes alone, anything else (this
 * code's own failures, which quote no one) as it is.
 */
export function loggableError(error: unknown): unknown {
  if (!fromService(error)) return error;
  return {
    type: typeof error.name === 'string' ? error.name : 'Error',
    responseCode: error.responseCode,
    status: error.status,
    code: codeOf(error.code),
    message: deliveryFailureReason(error),
  };
}

/**
 * Logs a failed attempt: at error when the service refused our own credentials or settings (every
 * message fails until an operator acts), as a warning otherwise.
 */
export function logFailedAttempt(
  log: Logger,
  fields: { jobId: string | undefined; attempt: number | undefined },
  error: unknown,
  what: string,
): void {
  const entry = { ...fields, err: loggableError(error) };
  if (deliveryFailureKind(error) === 'account')
    log.error(entry, `${what} attempt failed: the service refused our credentials or settings`);
  else log.warn(entry, `${what} attempt failed`);
}
