import type { BetEvent, BetStreamEvent } from '@wagers/contracts/events/bet';
import type { Decider } from '@wagers/platform/decider';
import { conflict, forbidden } from '@wagers/platform/errors';
import { evolve, initialBetState, type BetState } from './bet.ts';
import { partyOf, requireParty, stateSentence } from './access.ts';
import type {
  AcceptBet,
  BetCommand,
  DeclineBet,
  DeleteBet,
  JoinFromInvite,
  LeaveForDeletedAccount,
  ResendInvite,
} from './commands.ts';
import { phoneOptedOut } from '../invites/refusals.ts';
import { proposeBet } from './propose.ts';
import { submitResolution, winnerOf } from './resolve.ts';
import { confirmReceipt, markPaid, reportNotReceived } from './settle.ts';
import { acceptDraw, applyStandingReport, offerDraw } from './unstick.ts';
import { betStream } from '@wagers/contracts/events/bet';
import { defineAggregate } from '@wagers/platform/aggregate';
import { readBetEvent } from './bet.ts';

function answerAsOpponent(command: AcceptBet | DeclineBet, state: BetState): BetEvent[] {
  const party = requireParty(state, command.data.actorId);
  const verb = command.type === 'AcceptBet' ? 'accept' : 'decline';
  const done = command.type === 'AcceptBet' ? 'accepted' : 'declined';
  if (party === 'creator') throw forbidden(`Only the invited opponent can ${verb} this bet`);
  // The same answer again (a retry whose first answer was lost, or two clicks) changes nothing.
  const alreadyAnswered =
    command.type === 'AcceptBet'
      ? state.status === 'active' ||
        state.status === 'awaiting_resolution' ||
        state.status === 'completed'
      : state.status === 'declined';
  if (alreadyAnswered) return [];
  if (state.status !== 'pending')
    throw conflict(`${stateSentence(state)} Only a pending bet can be ${done}.`);
  const opponentId = command.data.actorId;
  return [
    command.type === 'AcceptBet'
      ? { type: 'BetAccepted', data: { opponentId } }
      : { type: 'BetDeclined', data: { opponentId } },
  ];
}

function deleteBet(command: DeleteBet, state: BetState): BetEvent[] {
  // The same deletion again (a retry whose first answer was lost, or two clicks) changes nothing;
  // to anyone else a deleted bet is not found.
  if (state.status === 'deleted' && partyOf(state, command.data.actorId) === 'creator') return [];
  const party = requireParty(state, command.data.actorId);
  if (party !== 'creator') throw forbidden('Only the creator can delete this bet');
  if (state.status !== 'pending')
    throw conflict(`${stateSentence(state)} Only a pending bet can be deleted.`);
  return [{ type: 'BetDeleted', data: { deletedBy: command.data.actorId } }];
}

/**
 * A participant deleted their account. A pending bet ends as its rules allow that participant:
 * the creator's is deleted, the opponent's declined. A bet under way keeps going (its history
 * stays; the person shows as a deleted user) and records that the side left, since nobody is left
 * to answer the other side: a report the other side already made stands at once, and so will the
 * one they make later (see `submitResolution`). A bet already ended, or already told, changes
 * nothing.
 */
function leaveForDeletedAccount(command: LeaveForDeletedAccount, state: BetState): BetEvent[] {
  const actorId = command.data.actorId;
  if (state.status === 'active' || state.status === 'awaiting_resolution') {
    const party = requireParty(state, actorId);
    if (state.sideLeft !== null) return [];
    const sideLeft: BetEvent = { type: 'BetSideLeft', data: { party, userId: actorId } };
    const left = party === 'creator' ? state.opponentResolution : state.creatorResolution;
    if (left === null) return [sideLeft];
    return [
      sideLeft,
      { type: 'BetCompleted', data: { resolution: left, winnerId: winnerOf(state, left) } },
    ];
  }
  if (state.status !== 'pending') return [];
  const party = requireParty(state, actorId);
  return [
    party === 'creator'
      ? { type: 'BetDeleted', data: { deletedBy: actorId, reason: 'account_deleted' } }
      : { type: 'BetDeclined', data: { opponentId: actorId, reason: 'account_deleted' } },
  ];
}

/** Records that the invitation should go out again; a process manager resends the invite. */
function resendInvite(command: ResendInvite, state: BetState): BetEvent[] {
  const party = requireParty(state, command.data.actorId);
  if (party !== 'creator') throw forbidden('Only the creator can resend the invitation');
  // A retry of a resend already done (the same Idempotency-Key) sends nothing again.
  const { sequence } = command.data;
  if (sequence !== undefined && state.inviteResends >= sequence) return [];
  if (state.status !== 'pending')
    throw conflict(
      `${stateSentence(state)} The invitation can only be resent while it is pending.`,
    );
  if (state.invitee === null)
    throw conflict('This bet was proposed to a friend; there is no invitation to resend.');
  if (state.inviteCode === null)
    throw conflict(
      'The invitation for this bet is still being prepared. Please try again in a moment.',
    );
  if (state.invitee.phone && command.data.phoneOptedOut) throw phoneOptedOut();
  return [
    {
      type: 'BetInviteResent',
      data: { inviteCode: state.inviteCode, sequence: state.inviteResends + 1 },
    },
  ];
}

/**
 * The newcomer accepted the bet's invite (they are friends by now). Idempotent: a second call
 * changes nothing. A bet that was withdrawn meanwhile is simply not joined; the friendship stands.
 */
function joinFromInvite(command: JoinFromInvite, state: BetState): BetEvent[] {
  const { opponentId, inviteCode } = command.data;
  if (state.status === 'none' || state.status === 'deleted' || state.status === 'declined')
    return [];
  if (state.opponentId === opponentId) return [];
  if (state.creatorId === opponentId) throw forbidden('You cannot accept your own bet');
  if (state.invitee === null) throw conflict('This bet was proposed to someone else');
  if (state.inviteCode !== null && state.inviteCode !== inviteCode)
    throw forbidden('This invite is not for this bet');
  if (state.status !== 'pending' || state.opponentId !== null)
    throw conflict('Someone else has already joined this bet');
  return [{ type: 'BetInviteAccepted', data: { opponentId, inviteCode } }];
}

export function decide(command: BetCommand, state: BetState): BetStreamEvent[] {
  switch (command.type) {
    case 'ProposeBet':
      return proposeBet(command, state);
    case 'ResendInvite':
      return resendInvite(command, state);
    case 'JoinFromInvite':
      return joinFromInvite(command, state);
    case 'AcceptBet':
    case 'DeclineBet':
      return answerAsOpponent(command, state);
    case 'DeleteBet':
      return deleteBet(command, state);
    case 'LeaveForDeletedAccount':
      return leaveForDeletedAccount(command, state);
    case 'SubmitResolution':
      return submitResolution(command, state);
    case 'MarkPaid':
      return markPaid(command, state);
    case 'ConfirmReceipt':
      return confirmReceipt(command, state);
    case 'ReportNotReceived':
      return reportNotReceived(command, state);
    case 'OfferDraw':
      return offerDraw(command, state);
    case 'AcceptDraw':
      return acceptDraw(command, state);
    case 'ApplyStandingReport':
      return applyStandingReport(command, state);
    default: {
      const unknown: never = command;
      return unknown;
    }
  }
}

export const betDecider: Decider<BetState, BetCommand, BetStreamEvent> = {
  initialState: initialBetState,
  decide,
  evolve,
};

/** bet-{betId}. */
export const betAggregate = defineAggregate({
  stream: betStream,
  decider: betDecider,
  read: readBetEvent,
});
