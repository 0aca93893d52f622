/** A newcomer to invite: an email, or a phone with SMS consent, never both. */
export type Invitee = { email: string; phone: string; smsConsent: boolean };

export const emptyInvitee: Invitee = { email: '', phone: '', smsConsent: false };

/** Filling one channel clears the other; clearing the phone withdraws the consent given for it. */
export function updateInvitee(current: Invitee, patch: Partial<Invitee>): Invitee {
  const next = { ...current, ...patch };
  if (patch.email !== undefined && patch.email !== '')
    Object.assign(next, { phone: '', smsConsent: false });
  if (patch.phone !== undefined && patch.phone !== '') next.email = '';
  if (next.phone === '') next.smsConsent = false;
  return next;
}

export function hasInvitee(invitee: Invitee): boolean {
  return invitee.email.trim() !== '' || invitee.phone.trim() !== '';
}

/** A phone needs the sender's confirmation that its owner agreed to the text. */
export function needsSmsConsent(invitee: Invitee): boolean {
  return invitee.phone.trim() !== '' && !invitee.smsConsent;
}
