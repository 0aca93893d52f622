import type { z } from 'zod';
import type { createBetRequestSchema, CreateBetResponse } from '@wagers/contracts/api/bets';
import { betStream } from '@wagers/contracts/events/bet';
import { maxPosition, type GlobalPosition } from '@wagers/contracts/position';
import type { CommandContext } from '@wagers/platform/decider';
import { DomainError } from '@wagers/platform/errors';
import type { EventStore } from '@wagers/platform/event-store/port';
import { newInviteCode, sendInvite } from '../invites/send-invite.ts';
import { foldStream } from '../users/load-user.ts';
import { areFriends } from './are-friends.ts';
import { initialBetState, readBetEvent } from './bet.ts';
import { toProposeBet } from './create-request.ts';
import { createdBet } from './created-bet.ts';
import type { ProposeBet } from './commands.ts';
import { betDecider } from './decide.ts';
import {
  findBetRequest,
  requestHash,
  reserveBetRequest,
  sameRequestOrRefuse,
} from './idempotency.ts';
import { runBetCommand } from './run-bet-command.ts';

type CreateBetBody = z.output<typeof createBetRequestSchema>;

export interface ProposeBetDeps {
  store: EventStore;
  publicUrl: string;
}

/**
 * POST /api/bets: proposes the bet and, for a newcomer, sends the invitation tied to it. With an
 * Idempotency-Key only the request that reserved the key does the work; a retry answers with
 * the bet the first one made (finishing its invitation if that one has not yet), even
 * if the request would no longer pass today (an end date that has since gone by).
 */
export async function proposeNewBet(
  deps: ProposeBetDeps,
  body: CreateBetBody,
  idempotencyKey: string | null,
  context: CommandContext & { actorId: string },
): Promise<{ body: CreateBetResponse; position: GlobalPosition | null }> {
  const { store } = deps;
  const creatorId = context.actorId;
  const opponentId = body.opponentId?.trim() || null;
  const opponentIsFriend = opponentId ? await areFriends(store, creatorId, opponentId) : false;
  const command = toProposeBet(
    body,
    { betId: context.newId(), creatorId, proposedAt: context.now },
    opponentIsFriend,
  );
  const forBet = (betId: string): ProposeBet => ({ ...command, data: { ...command.data, betId } });
  if (!idempotencyKey) {
    betDecider.decide(command, initialBetState());
    return createBet(deps, command, context);
  }
  const hash = requestHash(whatWasAsked(command));
  const earlier = await findBetRequest(store, creatorId, idempotencyKey);
  if (earlier) return createBet(deps, forBet(sameRequestOrRefuse(earlier, hash)), context);
  // Bad input is refused before anything is written, the key's reservation included.
  betDecider.decide(command, initialBetState());
  const reservation = await reserveBetRequest(
    store,
    { userId: creatorId, key: idempotencyKey, betId: command.data.betId, requestHash: hash },
    context,
  );
  return createBet(deps, forBet(reservation.betId), context);
}

/** Writes the proposal (a no-op if it exists) and the invitation, then answers as at creation. */
async function createBet(
  deps: ProposeBetDeps,
  command: ProposeBet,
  context: CommandContext & { actorId: string },
): Promise<{ body: CreateBetResponse; position: GlobalPosition | null }> {
  const betId = command.data.betId;
  const proposed = await runBetCommand(deps.store, betId, command, context);
  const invited = await ensureBetInvite(deps, betId, context);
  const answer = await createdBet(deps.store, betId, deps.publicUrl);
  return {
    body: answer.body,
    position: maxPosition(maxPosition(proposed.position, invited), answer.position),
  };
}

/** The request's content, without what differs between two sends of the same request. */
function whatWasAsked(command: ProposeBet): Record<string, unknown> {
  const { betId, proposedAt, opponentIsFriend, ...asked } = command.data;
  void [betId, proposedAt, opponentIsFriend];
  return asked;
}

/**
 * Sends a newcomer's bet its invitation, safely repeatable: the code is recorded on the bet
 * first (one code per bet, whoever gets there first), then the invite goes out under that code,
 * which is a no-op if it already did. A crash anywhere in between is finished by the next call:
 * a retry with the same Idempotency-Key, or the creator's Resend Invite.
 */
export async function ensureBetInvite(
  deps: Pick<ProposeBetDeps, 'store' | 'publicUrl'>,
  betId: string,
  context: CommandContext,
): Promise<GlobalPosition | null> {
  let state = await foldStream(deps.store, betStream(betId), betDecider, readBetEvent);
  const { invitee, creatorId } = state;
  if (!invitee || !creatorId || state.status !== 'pending') return null;
  let position: GlobalPosition | null = null;
  if (state.inviteCode === null) {
    try {
      const attached = await runBetCommand(
        deps.store,
        betId,
        { type: 'AttachInvite', data: { inviteCode: newInviteCode() } },
        context,
      );
      position = attached.position;
      state = attached.state;
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'conflict')) throw error;
      state = await foldStream(deps.store, betStream(betId), betDecider, readBetEvent);
    }
  }
  if (state.inviteCode === null) throw new Error('The bet has no invitation code');
  const sent = await sendInvite(
    deps.store,
    {
      inviterId: creatorId,
      inviteeEmail: invitee.email,
      inviteePhone: invitee.phone,
      smsConsent: invitee.smsConsent,
      betId,
      code: state.inviteCode,
    },
    { ...context, actorId: creatorId },
    deps.publicUrl,
  );
  return maxPosition(position, sent.position);
}
