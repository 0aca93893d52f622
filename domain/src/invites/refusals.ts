import { DomainError } from '@wagers/platform/errors';

export const OPTED_OUT_MESSAGE =
  'This number has opted out of SMS from Wagers (it replied STOP). Invite them by email instead.';

/** The number replied STOP: nothing more is texted to it. */
export const phoneOptedOut = () =>
  new DomainError('validation_failed', OPTED_OUT_MESSAGE, [
    { field: 'inviteePhone', message: OPTED_OUT_MESSAGE },
  ]);

export const selfInvite = (field: 'inviteeEmail' | 'inviteePhone' = 'inviteeEmail') => {
  const message = 'You cannot invite yourself';
  return new DomainError('validation_failed', message, [{ field, message }]);
};

/** Whether an invite to this email would reach the person sending it. */
export const isOwnEmail = (inviteeEmail: string | null, senderEmail: string) =>
  inviteeEmail !== null && inviteeEmail === senderEmail.toLowerCase();

/** Whether an invite to this number (E.164, as both are kept) would reach the person sending it. */
export const isOwnPhone = (inviteePhone: string | null, senderPhone: string | null) =>
  inviteePhone !== null && inviteePhone === senderPhone;
