import { notFound } from '@wagers/platform/errors';
import type { BetLifecycle, BetState } from './bet.ts';

export type Party = 'creator' | 'opponent';

export const BET_NOT_FOUND = 'Bet not found';

/** The caller's part in the bet; null for anyone else. */
export function partyOf(state: BetState, userId: string): Party | null {
  if (state.creatorId === userId) return 'creator';
  if (state.opponentId !== null && state.opponentId === userId) return 'opponent';
  return null;
}

/**
 * Strangers learn nothing, not even that the bet exists: the same 404 as for an unknown id. A
 * deleted bet has left every list, so it is gone for its participants too.
 */
export function requireParty(state: BetState, userId: string): Party {
  const party =
    state.status === 'none' || state.status === 'deleted' ? null : partyOf(state, userId);
  if (!party) throw notFound(BET_NOT_FOUND);
  return party;
}

const whereItStands: Record<Exclude<BetLifecycle, 'none' | 'deleted'>, string> = {
  pending: 'is still waiting for the opponent to accept',
  active: 'is already active',
  awaiting_resolution: 'is already waiting for the outcome to be confirmed',
  completed: 'is already completed',
  declined: 'was declined',
};

/** "This bet is already active." and the like, for 409 messages. */
export function stateSentence(state: BetState): string {
  if (state.status === 'none' || state.status === 'deleted') return 'This bet no longer exists.';
  return `This bet ${whereItStands[state.status]}.`;
}
