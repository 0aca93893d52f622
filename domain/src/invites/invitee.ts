import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { emailSchema } from '@wagers/contracts/api/auth';
import { DomainError } from '@wagers/platform/errors';

export interface InviteeInput {
  inviteeEmail?: string | null;
  inviteePhone?: string | null;
  smsConsent?: boolean | null;
}

export type Invitee = { email: string; phone: null } | { email: null; phone: string };

const fieldError = (field: string, message: string) =>
  new DomainError('validation_failed', message, [{ field, message }]);

/**
 * Exactly one of an email or a phone, normalised: the email lowercased, the phone in E.164. The
 * phone must be written internationally (with its +country code), since we cannot guess a country.
 */
export function parseInvitee(input: InviteeInput): Invitee {
  const email = input.inviteeEmail?.trim() ?? '';
  const phone = input.inviteePhone?.trim() ?? '';
  if (email && phone) {
    const message = 'Enter an email or a phone number, not both';
    throw new DomainError('validation_failed', message, [
      { field: 'inviteeEmail', message },
      { field: 'inviteePhone', message },
    ]);
  }
  if (!email && !phone) {
    const message = 'Please enter an email or phone number';
    throw new DomainError('validation_failed', message, [
      { field: 'inviteeEmail', message },
      { field: 'inviteePhone', message },
    ]);
  }
  if (email) {
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) throw fieldError('inviteeEmail', 'Enter a valid email address');
    return { email: parsed.data, phone: null };
  }
  const number = parsePhoneNumberFromString(phone);
  if (!phone.startsWith('+') || !number?.isValid()) {
    throw fieldError(
      'inviteePhone',
      'Enter the phone number in international format, e.g. +1 415 555 0123',
    );
  }
  if (input.smsConsent !== true) {
    throw fieldError(
      'smsConsent',
      'SMS Consent Required: Please confirm you have permission to send SMS to this number',
    );
  }
  return { email: null, phone: number.number };
}
