import type { BetEvent, BetProposed } from '@wagers/contracts/events/bet';
import type { ProposeBet } from './commands.ts';

/** Shared by the decider specs: two friends, a stranger, and a bet between the friends. */
export const CREATOR = 'user-creator';
export const OPPONENT = 'user-opponent';
export const STRANGER = 'user-stranger';
export const NEWCOMER = 'user-newcomer';
export const BET_ID = 'bet-1';
export const CODE = 'invite-code-1';
export const NOW = '2030-06-15T12:00:00.000Z';

const proposal: BetProposed['data'] = {
  betId: BET_ID,
  creatorId: CREATOR,
  opponentId: OPPONENT,
  inviteeEmail: null,
  inviteePhone: null,
  smsConsent: false,
  title: 'Rain on Sunday',
  description: 'It will rain in Paris on Sunday',
  wagerType: 'money',
  wagerAmountCents: 1250,
  wagerDescription: null,
  endDate: null,
  validationMode: 'both',
};

export const proposeCommand = (overrides: Partial<ProposeBet['data']> = {}): ProposeBet => ({
  type: 'ProposeBet',
  data: {
    ...proposal,
    opponentIsFriend: true,
    opponentDeleted: false,
    creatorEmail: 'creator@example.com',
    creatorPhone: null,
    inviteePhoneOptedOut: false,
    inviteCode: overrides.opponentId === null ? CODE : null,
    requestHash: null,
    proposedAt: NOW,
    ...overrides,
  },
});

export const proposed = (overrides: Partial<BetProposed['data']> = {}): BetProposed => ({
  type: 'BetProposed',
  data: { ...proposal, ...overrides },
});

export const proposedToNewcomer = (overrides: Partial<BetProposed['data']> = {}) =>
  proposed({ opponentId: null, inviteeEmail: 'newcomer@example.com', ...overrides });

export const accepted: BetEvent = { type: 'BetAccepted', data: { opponentId: OPPONENT } };
export const attached: BetEvent = {
  type: 'BetInviteAttached',
  data: { inviteCode: CODE, signedLink: true },
};

export const submitted = (
  party: 'creator' | 'opponent',
  resolution: 'creator_won' | 'opponent_won' | 'draw',
): BetEvent => ({
  type: 'ResolutionSubmitted',
  data: { party, userId: party === 'creator' ? CREATOR : OPPONENT, resolution },
});

export const completed = (resolution: 'creator_won' | 'opponent_won' | 'draw'): BetEvent => ({
  type: 'BetCompleted',
  data: {
    resolution,
    winnerId:
      resolution === 'creator_won' ? CREATOR : resolution === 'opponent_won' ? OPPONENT : null,
  },
});
