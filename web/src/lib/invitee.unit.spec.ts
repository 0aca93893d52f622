import { describe, expect, it } from 'vitest';
import { emptyInvitee, hasInvitee, needsSmsConsent, updateInvitee } from './invitee.ts';

describe('invitee fields', () => {
  it('keeps email and phone mutually exclusive', () => {
    const withPhone = updateInvitee(emptyInvitee, { phone: '+1555', smsConsent: true });
    const withEmail = updateInvitee(withPhone, { email: 'a@b.co' });
    expect(withEmail).toEqual({ email: 'a@b.co', phone: '', smsConsent: false });
    expect(updateInvitee(withEmail, { phone: '+1' }).email).toBe('');
  });

  it('clears the consent with the phone', () => {
    const consented = { email: '', phone: '+1555', smsConsent: true };
    expect(updateInvitee(consented, { phone: '' }).smsConsent).toBe(false);
  });

  it('needs consent only for a phone', () => {
    expect(hasInvitee(emptyInvitee)).toBe(false);
    expect(needsSmsConsent({ email: '', phone: '+1', smsConsent: false })).toBe(true);
    expect(needsSmsConsent({ email: 'a@b.co', phone: '', smsConsent: false })).toBe(false);
  });
});
