import { describe, it } from 'vitest';
import type { EmailReservationEvent } from '@wagers/contracts/events/user';
import { deciderSpec } from '@wagers/test-support/decider-spec';
import { emailReservationDecider } from './email-reservation.ts';

const spec = deciderSpec(emailReservationDecider);
const first = '11111111-1111-4111-8111-111111111111';
const second = '22222222-2222-4222-8222-222222222222';
const reserved = (userId: string): EmailReservationEvent => ({
  type: 'EmailReserved',
  data: { userId, email: 'ann@example.com' },
});
const released: EmailReservationEvent = { type: 'EmailReleased', data: { userId: first } };
const reserve = (userId: string) =>
  ({ type: 'ReserveEmail', data: { userId, email: 'ann@example.com' } }) as const;
const release = (userId: string) => ({ type: 'ReleaseEmail', data: { userId } }) as const;

describe('email reservation', () => {
  it('goes to the first account that asks, and stays with it', () => {
    spec
      .given([])
      .when(reserve(first))
      .then([reserved(first)]);
    spec
      .given([reserved(first)])
      .when(reserve(second))
      .thenNothing();
  });

  it('is released by its deleted account, once', () => {
    spec
      .given([reserved(first)])
      .when(release(first))
      .then([released]);
    spec
      .given([reserved(first), released])
      .when(release(first))
      .thenNothing();
  });

  it('is not released for an account that does not hold it', () => {
    spec.given([]).when(release(first)).thenNothing();
    spec
      .given([reserved(first)])
      .when(release(second))
      .thenNothing();
  });

  it('once released, goes to the next account that asks', () =>
    spec
      .given([reserved(first), released])
      .when(reserve(second))
      .then([reserved(second)]));

  it('reads a reservation whose address was erased by the account it names', () =>
    spec
      .given([{ type: 'EmailReserved', data: { userId: first, email: null } }])
      .when(release(first))
      .then([released]));
});
