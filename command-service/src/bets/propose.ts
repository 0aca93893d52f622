import type { BetProposed } from '@wagers/contracts/events/bet';
import { conflict, forbidden, invalid } from '@wagers/platform/errors';
import type { BetState } from './bet.ts';
import type { ProposeBet } from './commands.ts';

/** Users pick the end date in their own time zone; the earliest calendar date on Earth is UTC-12. */
const EARLIEST_ZONE_OFFSET_MS = 12 * 60 * 60 * 1000;

export function earliestEndDate(proposedAt: string): string {
  return new Date(Date.parse(proposedAt) - EARLIEST_ZONE_OFFSET_MS).toISOString().slice(0, 10);
}

export function proposeBet(command: ProposeBet, state: BetState): BetProposed[] {
  const data = command.data;
  // Bet ids are fresh per request; an existing stream means this very proposal is being retried.
  if (state.status !== 'none') {
    if (state.creatorId === data.creatorId) return [];
    throw conflict('A bet with this id already exists');
  }
  const newcomer = data.inviteeEmail ?? data.inviteePhone;
  if (data.opponentId !== null && newcomer !== null) {
    throw invalid('opponentId', 'Choose either a friend or a newcomer to invite, not both');
  }
  if (data.opponentId === null && newcomer === null) {
    throw invalid(
      'opponentId',
      'Please select a friend, or enter an email or phone number to invite',
    );
  }
  if (data.inviteeEmail !== null && data.inviteePhone !== null) {
    throw invalid('inviteePhone', 'Enter an email or a phone number, not both');
  }
  if (data.inviteePhone !== null && !data.smsConsent) {
    throw invalid(
      'smsConsent',
      'SMS Consent Required: Please confirm you have permission to send SMS to this number',
    );
  }
  if (data.opponentId === data.creatorId) throw forbidden('You cannot bet against yourself');
  if (data.opponentId !== null && !data.opponentIsFriend) {
    throw forbidden('You can only propose a bet to one of your friends');
  }
  if (data.wagerType === 'money' && data.wagerAmountCents === null) {
    throw invalid('wagerAmount', 'Please enter a wager amount');
  }
  if (data.wagerType === 'custom' && !data.wagerDescription) {
    throw invalid('wagerDescription', "Please describe what you're wagering");
  }
  if (
    data.wagerAmountCents !== null &&
    (!Number.isSafeInteger(data.wagerAmountCents) || data.wagerAmountCents < 0)
  ) {
    throw invalid(
      'wagerAmount',
      'The wager amount must be zero or more, with at most two decimals',
    );
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
      },
    },
  ];
}
