import type { Resolution } from '@wagers/contracts/api/bets';
import type { BetEvent } from '@wagers/contracts/events/bet';
import { conflict } from '@wagers/platform/errors';
import type { BetState } from './bet.ts';
import { requireParty, stateSentence } from './access.ts';
import type { SubmitResolution } from './commands.ts';

export function winnerOf(state: BetState, resolution: Resolution): string | null {
  if (resolution === 'creator_won') return state.creatorId;
  if (resolution === 'opponent_won') return state.opponentId;
  return null;
}

/**
 * Mode one: the first answer decides. Mode both: the first answer waits for the other party; a
 * matching one completes the bet, a differing one is a dispute that either party may resubmit.
 * Once the other party has deleted their account (recorded on the bet as the side that left),
 * nobody is left to answer: the report stands at once, and so does a report made before, sent
 * again.
 */
export function submitResolution(command: SubmitResolution, state: BetState): BetEvent[] {
  const party = requireParty(state, command.data.actorId);
  const { resolution } = command.data;
  const own = party === 'creator' ? state.creatorResolution : state.opponentResolution;
  const other = party === 'creator' ? state.opponentResolution : state.creatorResolution;

  if (state.status === 'completed') {
    // The same answer sent again (a retry, or two clicks) is not an error.
    if (own === resolution) return [];
    throw conflict(`${stateSentence(state)} The outcome can no longer be changed.`);
  }
  if (state.status !== 'active' && state.status !== 'awaiting_resolution') {
    throw conflict(`${stateSentence(state)} Only an active bet can be resolved.`);
  }
  if (state.opponentId === null) throw conflict('No opponent has joined this bet yet.');
  const otherSideDeleted = state.sideLeft !== null && state.sideLeft !== party;
  if (own === resolution && !otherSideDeleted) return [];

  const submitted: BetEvent = {
    type: 'ResolutionSubmitted',
    data: {
      party,
      userId: command.data.actorId,
      resolution,
      ...(command.data.submittedAt ? { submittedAt: command.data.submittedAt } : {}),
    },
  };
  const completed: BetEvent = {
    type: 'BetCompleted',
    data: { resolution, winnerId: winnerOf(state, resolution) },
  };
  if (otherSideDeleted) return own === resolution ? [completed] : [submitted, completed];
  if (state.validationMode === 'one') return [submitted, completed];
  if (other === null) return [submitted];
  if (other === resolution) return [submitted, completed];
  const [creatorResolution, opponentResolution] =
    party === 'creator' ? [resolution, other] : [other, resolution];
  return [
    submitted,
    { type: 'ResolutionDisputed', data: { creatorResolution, opponentResolution } },
  ];
}
