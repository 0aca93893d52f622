import type { BetProposed } from '@wagers/contracts/events/bet';
import type { BetInviteAttached } from '@wagers/contracts/events/bet';
import { conflict, forbidden, invalid } from '@wagers/platform/errors';
import { isOwnEmail, isOwnPhone, phoneOptedOut, selfInvite } from '../invites/refusals.ts';
import type { BetState } from './bet.ts';
import type { ProposeBet } from './commands.ts';

/** Users pick the end date in their own time zone; the earliest calendar date on Earth is UTC-12. */
const EARLIEST_ZONE_OFFSET_MS = 12 * 60 * 60 * 1000;

export function earliestEndDate(proposedAt: string): string {
  return new Date(Date.parse(proposedAt) - EARLIEST_ZONE_OFFSET_MS).toISOString().slice(0, 10);
}

/**
 * The proposal and, for a newcomer, the invitation's code, in one append; a process manager then
 * sends the invite. A bet id comes fresh per request or from the creator's Idempotency-Key, so an
 * existing bet means this very request is being retried: it changes nothing.
 */
export function proposeBet(
  command: ProposeBet,
  state: BetState,
): (BetProposed | BetInviteAttached)[] {
  const data = command.data;
  if (state.status !== 'none') {
    if (state.creatorId !== data.creatorId) throw conflict('A bet with this id already exists');
    if (state.requestHash !== data.requestHash) {
      throw conflict(
        'This Idempotency-Key was already used for a different bet. Use a new key for a new bet.',
      );
    }
    return [];
  }
  // The body's own rules (one opponent, consent for a phone, the wager) are the request
  // schema's; what is left needs the log, the clock or the actor.
  const newcomer = data.inviteeEmail ?? data.inviteePhone;
  if (isOwnEmail(data.inviteeEmail, data.creatorEmail)) throw selfInvite();
  if (isOwnPhone(data.inviteePhone, data.creatorPhone)) throw selfInvite('inviteePhone');
  if (data.inviteePhone !== null && data.inviteePhoneOptedOut) throw phoneOptedOut();
  if (newcomer !== null && data.inviteCode === null) {
    throw new Error('A bet for a newcomer needs its invite code chosen before deciding');
  }
  if (data.opponentId === data.creatorId) throw forbidden('You cannot bet against yourself');
  if (data.opponentId !== null && data.opponentDeleted) {
    throw conflict('This person has deleted their account');
  }
  if (data.opponentId !== null && !data.opponentIsFriend) {
    throw forbidden('You can only propose a bet to one of your friends');
  }
  if (data.endDate !== null && data.endDate < earliestEndDate(data.proposedAt)) {
    throw invalid('endDate', 'The end date cannot be in the past');
  }
  return [
    {
      type: 'BetProposed',
      data: {
        betId: data.betId,
        creatorId: data.creatorId,
        opponentId: data.opponentId,
        inviteeEmail: data.inviteeEmail,
        inviteePhone: data.inviteePhone,
        smsConsent: data.inviteePhone !== null && data.smsConsent,
        title: data.title,
        description: data.description,
        wagerType: data.wagerType,
        wagerAmountCents: data.wagerType === 'money' ? data.wagerAmountCents : null,
        wagerDescription: data.wagerType === 'custom' ? data.wagerDescription : null,
        endDate: data.endDate,
        validationMode: data.validationMode,
        ...(data.requestHash !== null ? { requestHash: data.requestHash } : {}),
        // Only mode both waits for a second report; in mode one the first already decides.
        ...(data.reportStands && data.validationMode === 'both' ? { reportStands: true } : {}),
      },
    },
    ...(newcomer !== null && data.inviteCode !== null
      ? [
          {
            type: 'BetInviteAttached' as const,
            data: { inviteCode: data.inviteCode, signedLink: true as const },
          },
        ]
      : []),
  ];
}
