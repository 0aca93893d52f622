import { INVITEE_MESSAGES } from '@wagers/contracts/api/invitee';
import { DomainError } from '@wagers/platform/errors';

export const OPTED_OUT_MESSAGE =
  'This number has opted out of SMS from Wagers (it replied STOP). Invite them by email instead.';

/** The number replied STOP: nothing more is texted to it. */
export const phoneOptedOut = () =>
  new DomainError('validation_failed', OPTED_OUT_MESSAGE, [
    { field: 'inviteePhone', message: OPTED_OUT_MESSAGE },
  ]);

export const selfInvite = (field: 'inviteeEmail' | 'inviteePhone' = 'inviteeEmail') => {
  const message = INVITEE_MESSAGES.self;
  return new DomainError('validation_failed', message, [{ field, message }]);
};

export { isOwnEmail, isOwnPhone } from '@wagers/contracts/api/invitee';
