import { describe, expect, it } from 'vitest';
import { deliveryFailureReason, loggableError } from './delivery-failure.ts';

const smtpRefusal = Object.assign(
  new Error("Can't send mail - all recipients were rejected: 550 5.1.1 <bo@example.com>: unknown"),
  { responseCode: 550, code: 'EENVELOPE', rejected: ['bo@example.com'] },
);
const textRefusal = Object.assign(new Error("The 'To' number +15005550001 is not valid"), {
  status: 400,
  code: 21211,
});

describe('what a failed delivery says of itself', () => {
  it('names the service and its codes, never the address or number it quoted', () => {
    expect(deliveryFailureReason(smtpRefusal)).toBe(
      'The mail server refused the message (550, EENVELOPE)',
    );
    expect(deliveryFailureReason(textRefusal)).toBe(
      'The text message service refused the message (400, error 21211)',
    );
    expect(deliveryFailureReason(new Error('connect ECONNREFUSED'))).toBe('Delivery failed');
  });

  it('logs a refusal by its codes alone, and any other error as it is', () => {
    for (const refusal of [smtpRefusal, textRefusal]) {
      const logged = JSON.stringify(loggableError(refusal));
      expect(logged).not.toMatch(/bo@example\.com|\+15005550001/);
      expect(logged).toContain('refused the message');
    }
    const bug = new TypeError('x is undefined');
    expect(loggableError(bug)).toBe(bug);
  });
});
