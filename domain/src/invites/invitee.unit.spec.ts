import { describe, expect, it } from 'vitest';
import { DomainError } from '@wagers/platform/errors';
import { parseInvitee, type InviteeInput } from './invitee.ts';

function fieldsOf(input: InviteeInput): string[] {
  try {
    parseInvitee(input);
  } catch (error) {
    if (error instanceof DomainError) return (error.fieldErrors ?? []).map((e) => e.field);
    throw error;
  }
  return [];
}

describe('parseInvitee', () => {
  it('normalises an email', () => {
    expect(parseInvitee({ inviteeEmail: '  Bob@Example.COM ' })).toEqual({
      email: 'bob@example.com',
      phone: null,
    });
  });

  it('normalises an international phone with consent to E.164', () => {
    expect(parseInvitee({ inviteePhone: '+1 (415) 555-0123', smsConsent: true })).toEqual({
      email: null,
      phone: '+14155550123',
    });
  });

  it('wants exactly one of the two', () => {
    expect(fieldsOf({})).toEqual(['inviteeEmail', 'inviteePhone']);
    expect(fieldsOf({ inviteeEmail: ' ', inviteePhone: '' })).toEqual([
      'inviteeEmail',
      'inviteePhone',
    ]);
    expect(
      fieldsOf({ inviteeEmail: 'a@b.co', inviteePhone: '+14155550123', smsConsent: true }),
    ).toEqual(['inviteeEmail', 'inviteePhone']);
  });

  it('names the bad field', () => {
    expect(fieldsOf({ inviteeEmail: 'not-an-email' })).toEqual(['inviteeEmail']);
    expect(fieldsOf({ inviteePhone: '4155550123', smsConsent: true })).toEqual(['inviteePhone']);
    expect(fieldsOf({ inviteePhone: '+1234', smsConsent: true })).toEqual(['inviteePhone']);
    expect(fieldsOf({ inviteePhone: '+14155550123' })).toEqual(['smsConsent']);
    expect(fieldsOf({ inviteePhone: '+14155550123', smsConsent: false })).toEqual(['smsConsent']);
  });
});
