import { checkInvitee, type Invitee, type InviteeInput } from '@wagers/contracts/api/invitee';
import { DomainError } from '@wagers/platform/errors';

export type { Invitee, InviteeInput };

/**
 * Exactly one of an email or a phone, normalised: the email lowercased, the phone in E.164. The
 * rules are the contracts' (`checkInvitee`), the same the web form applies; a refusal names its
 * fields.
 */
export function parseInvitee(input: InviteeInput): Invitee {
  const checked = checkInvitee(input);
  if (checked.ok) return checked.invitee;
  const { message, fields } = checked.refusal;
  throw new DomainError(
    'validation_failed',
    message,
    fields.map((field) => ({ field, message })),
  );
}
