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
  name?: unknown;
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
