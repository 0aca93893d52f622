/**
 * The bet's fixed vocabularies and limits, free of zod so the browser's first page can use them
 * without loading the schema library.
 */
export const betStatuses = [
  'pending',
  'active',
  'awaiting_resolution',
  'completed',
  'declined',
] as const;
export type BetStatus = (typeof betStatuses)[number];
export const resolutions = ['creator_won', 'opponent_won', 'draw'] as const;
export type Resolution = (typeof resolutions)[number];
export const wagerTypes = ['money', 'custom'] as const;
export type WagerType = (typeof wagerTypes)[number];
export const validationModes = ['both', 'one'] as const;
export type ValidationMode = (typeof validationModes)[number];

export const BET_LIMITS = { title: 200, description: 1000, wagerDescription: 500 } as const;

/** A money bet is for at least one cent: a $0 bet has nothing to settle (a custom wager fits it). */
export const MIN_WAGER_CENTS = 1;

/** The rules' words, shared by the request schema and the wizard's toasts. */
export const BET_MESSAGES = {
  chooseOpponent: 'Please select a friend, or enter an email or phone number to invite',
  friendOrNewcomer: 'Choose either a friend or a newcomer to invite, not both',
  emailOrPhone: 'Enter an email or a phone number, not both',
  smsConsent: 'SMS Consent Required: Please confirm you have permission to send SMS to this number',
  amountMissing: 'Please enter a wager amount',
  amountFormat: 'Enter an amount of more than zero with at most two decimals, e.g. 12.50',
  wagerDescription: "Please describe what you're wagering",
} as const;
