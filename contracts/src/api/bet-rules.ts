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
