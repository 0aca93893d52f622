import type { BetStreamEvent } from '@wagers/contracts/events/bet';

/** A row of rm_bets as the projector keeps it in memory while it folds a page. */
export interface BetState {
  id: string;
  /** Global log position (minor part) of the proposal: ties of created_at, newest first. */
  seq: string;
  title: string;
  description: string;
  wager_type: string;
  wager_amount_cents: string | null;
  wager_description: string | null;
  end_date: string | null;
  validation_mode: string;
  status: string;
  creator_id: string;
  opponent_id: string | null;
  invitee: string | null;
  invite_code: string | null;
  creator_resolution: string | null;
  opponent_resolution: string | null;
  winner_id: string | null;
  created_at: string;
  updated_at: string;
  revision: string;
}

/**
 * Column changes one event makes to its bet (besides revision and updated_at). Every event of the
 * stream is named: a new one is a type error here until its change, if any, is decided.
 */
function changes(event: BetStreamEvent): Partial<BetState> {
  // Settling up has its own read model; the completion that follows a draw or a standing report,
  // in the same append, sets the status.
  switch (event.type) {
    case 'BetProposed':
    case 'BetInviteResent':
    case 'ResolutionDisputed':
    case 'BetMarkedPaid':
    case 'BetPaymentConfirmed':
    case 'BetPaymentNotReceived':
    case 'DrawOffered':
    case 'DrawAccepted':
    case 'ReportStood':
    case 'BetSideLeft':
      return {};
    case 'BetInviteAttached':
      return { invite_code: event.data.inviteCode };
    case 'BetInviteAccepted':
      return { status: 'active', opponent_id: event.data.opponentId, invitee: null };
    case 'BetAccepted':
      return { status: 'active' };
    case 'BetDeclined':
      return { status: 'declined' };
    case 'BetDeleted':
      return { status: 'deleted' };
    case 'ResolutionSubmitted':
      return {
        status: 'awaiting_resolution',
        [event.data.party === 'creator' ? 'creator_resolution' : 'opponent_resolution']:
          event.data.resolution,
      };
    case 'BetCompleted':
      return { status: 'completed', winner_id: event.data.winnerId };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

export interface BetFact {
  betId: string;
  event: BetStreamEvent;
  revision: bigint;
  /** Minor part of the event's global position. */
  seq: bigint;
  occurredAt: string;
}

/**
 * The bet after one more event of its stream. An event at or below the row's revision was
 * already applied and changes nothing, so replaying a page is harmless.
 */
export function evolveBet(state: BetState | undefined, fact: BetFact): BetState | undefined {
  const { event } = fact;
  if (event.type === 'BetProposed') {
    if (state) return state;
    const bet = event.data;
    return {
      id: fact.betId,
      seq: fact.seq.toString(),
      title: bet.title,
      description: bet.description,
      wager_type: bet.wagerType,
      wager_amount_cents: bet.wagerAmountCents === null ? null : String(bet.wagerAmountCents),
      wager_description: bet.wagerDescription,
      end_date: bet.endDate,
      validation_mode: bet.validationMode,
      status: 'pending',
      creator_id: bet.creatorId,
      opponent_id: bet.opponentId,
      invitee: bet.inviteeEmail ?? bet.inviteePhone,
      invite_code: null,
      creator_resolution: null,
      opponent_resolution: null,
      winner_id: null,
      created_at: fact.occurredAt,
      updated_at: fact.occurredAt,
      revision: fact.revision.toString(),
    };
  }
  if (!state || BigInt(state.revision) >= fact.revision) return state;
  return {
    ...state,
    ...changes(event),
    updated_at: fact.occurredAt,
    revision: fact.revision.toString(),
  };
}
