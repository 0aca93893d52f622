import type { BetStreamEvent } from '@wagers/contracts/events/bet';
import { conflict } from '@wagers/platform/errors';
import type { BetState } from './bet.ts';
import { requireParty, stateSentence } from './access.ts';
import type { AcceptDraw, ApplyStandingReport, OfferDraw } from './commands.ts';
import { winnerOf } from './resolve.ts';

/** Days of silence after the creator's report before it stands, when the bet says so. */
export const REPORT_STANDS_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/** When the creator's report stands (ISO), or null when nothing can stand. */
export function standsAt(state: BetState): string | null {
  if (!state.reportStands || state.creatorReportedAt === null) return null;
  return new Date(Date.parse(state.creatorReportedAt) + REPORT_STANDS_DAYS * DAY_MS).toISOString();
}

const disputed = (state: BetState) =>
  state.status === 'awaiting_resolution' &&
  state.creatorResolution !== null &&
  state.opponentResolution !== null &&
  state.creatorResolution !== state.opponentResolution;

export function offerDraw(command: OfferDraw, state: BetState): BetStreamEvent[] {
  const { actorId } = command.data;
  requireParty(state, actorId);
  if (!disputed(state))
    throw conflict(
      `${stateSentence(state)} A draw can only be offered while your reports disagree.`,
    );
  if (state.drawOfferedBy === actorId) return [];
  if (state.drawOfferedBy !== null)
    throw conflict('Your friend already offered a draw: accept it instead.');
  return [{ type: 'DrawOffered', data: { userId: actorId } }];
}

export function acceptDraw(command: AcceptDraw, state: BetState): BetStreamEvent[] {
  const { actorId } = command.data;
  requireParty(state, actorId);
  // Two clicks on Accept: the second finds the draw already made.
  if (state.status === 'completed' && state.settledBy === 'draw') return [];
  if (!disputed(state) || state.drawOfferedBy === null || state.drawOfferedBy === actorId)
    throw conflict('No draw has been offered to you on this bet.');
  return [
    { type: 'DrawAccepted', data: { userId: actorId } },
    { type: 'BetCompleted', data: { resolution: 'draw', winnerId: null } },
  ];
}

/**
 * The scheduler's command: the creator's report stands once its days have passed with no answer.
 * A bet that moved on meanwhile (answered, completed, deleted) is left as it is.
 */
export function applyStandingReport(
  command: ApplyStandingReport,
  state: BetState,
): BetStreamEvent[] {
  const due = standsAt(state);
  const resolution = state.creatorResolution;
  if (
    state.status !== 'awaiting_resolution' ||
    state.opponentResolution !== null ||
    resolution === null ||
    state.creatorReportedAt === null ||
    due === null
  )
    return [];
  if (Date.parse(command.data.now) < Date.parse(due))
    throw conflict(`The creator's report stands only from ${due}.`);
  return [
    {
      type: 'ReportStood',
      data: { resolution, reportedAt: state.creatorReportedAt, days: REPORT_STANDS_DAYS },
    },
    { type: 'BetCompleted', data: { resolution, winnerId: winnerOf(state, resolution) } },
  ];
}
