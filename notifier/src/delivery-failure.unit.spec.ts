import { describe, expect, it } from 'vitest';
import { deliveryFailureKind, deliveryFailureReason, loggableError } from './delivery-failure.ts';

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

describe('which failures are for good', () => {
  const smtp = (responseCode: number, response: string, code = 'EENVELOPE') =>
    Object.assign(new Error(`Message failed: ${response}`), { responseCode, response, code });
  const twilio = (status: number, code: number) =>
    Object.assign(new Error('Twilio refused'), { status, code });

  it("only this recipient's refusal: an unknown mailbox, an invalid or unsubscribed number", () => {
    expect(deliveryFailureKind(smtpRefusal)).toBe('recipient');
    expect(deliveryFailureKind(smtp(551, '551 5.1.6 User has moved'))).toBe('recipient');
    expect(deliveryFailureKind(smtp(553, '553 5.1.3 Bad recipient address syntax'))).toBe(
      'recipient',
    );
    for (const code of [21211, 21610, 21614])
      expect(deliveryFailureKind(twilio(400, code))).toBe('recipient');
  });

  it("our credentials or settings refused: the account's, retried", () => {
    expect(
      deliveryFailureKind(smtp(535, '535 5.7.8 Authentication credentials invalid', 'EAUTH')),
    ).toBe('account');
    expect(deliveryFailureKind(smtp(530, '530 5.7.0 Authentication required'))).toBe('account');
    expect(deliveryFailureKind(twilio(401, 20003))).toBe('account');
    expect(deliveryFailureKind(twilio(403, 20003))).toBe('account');
  });

  it('anything else is transient: a 5xx not about the mailbox, a 4xx, a rate limit, no answer', () => {
    expect(deliveryFailureKind(smtp(550, '550 5.7.1 Relaying denied'))).toBe('transient');
    expect(deliveryFailureKind(smtp(554, '554 5.7.1 Message rejected as spam'))).toBe('transient');
    expect(deliveryFailureKind(smtp(451, '451 4.3.0 Try again later'))).toBe('transient');
    expect(deliveryFailureKind(twilio(429, 20429))).toBe('transient');
    expect(deliveryFailureKind(twilio(400, 21606))).toBe('transient');
    expect(deliveryFailureKind(new Error('connect ECONNREFUSED'))).toBe('transient');
  });
});
