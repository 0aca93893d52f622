import { describe, expect, it } from 'vitest';
import { checkInvitee, type InviteeInput } from './invitee.ts';

/** The words a person is shown for this invitee, or null when it is taken. */
function refusal(input: InviteeInput, sender?: { email?: string | null; phone?: string | null }) {
  const checked = checkInvitee(input, sender);
  return checked.ok ? null : checked.refusal.message;
}

describe('checkInvitee', () => {
  it('takes a well-formed email or an international phone with consent, normalised', () => {
    expect(checkInvitee({ inviteeEmail: ' Nora@Example.COM ' })).toEqual({
      ok: true,
      invitee: { email: 'nora@example.com', phone: null },
    });
    expect(checkInvitee({ inviteePhone: '+1 (415) 555-0123', smsConsent: true })).toEqual({
      ok: true,
      invitee: { email: null, phone: '+14155550123' },
    });
  });

  it('refuses a malformed email, and a phone without its country code or not a number', () => {
    expect(refusal({ inviteeEmail: 'nora@' })).toBe('Enter a valid email address');
    for (const inviteePhone of ['4155550123', '+1234', '+1 555 123 4567']) {
      expect(refusal({ inviteePhone, smsConsent: true })).toBe(
        'Enter the phone number in international format, e.g. +1 415 555 0123',
      );
    }
  });

  it('asks for one channel, and consent for a phone', () => {
    expect(refusal({ inviteeEmail: ' ', inviteePhone: '' })).toBe(
      'Please enter an email or phone number',
    );
    expect(
      refusal({ inviteeEmail: 'a@b.co', inviteePhone: '+14155550123', smsConsent: true }),
    ).toBe('Enter an email or a phone number, not both');
    expect(refusal({ inviteePhone: '+14155550123' })).toMatch(/^SMS Consent Required/);
  });

  it("refuses the sender's own email or number, however it is written", () => {
    const sender = { email: 'Me@Example.com', phone: '+14155550177' };
    expect(refusal({ inviteeEmail: 'ME@example.com ' }, sender)).toBe('You cannot invite yourself');
    expect(refusal({ inviteePhone: '+1 415 555 0177', smsConsent: true }, sender)).toBe(
      'You cannot invite yourself',
    );
    expect(refusal({ inviteeEmail: 'you@example.com' }, sender)).toBeNull();
    expect(refusal({ inviteeEmail: 'me@example.com' })).toBeNull();
  });
});
