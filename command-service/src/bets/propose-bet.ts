import type { z } from 'zod';
import type { createBetRequestSchema, CreateBetResponse } from '@wagers/contracts/api/bets';
import { betStream } from '@wagers/contracts/events/bet';
import { maxPosition, type GlobalPosition } from '@wagers/contracts/position';
import type { CommandContext } from '@wagers/platform/decider';
import { conflict } from '@wagers/platform/errors';
import type { EventStore } from '@wagers/platform/event-store/port';
import { sendInvite } from '../invites/send-invite.ts';
import { areFriends } from './are-friends.ts';
import { initialBetState } from './bet.ts';
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
  /** How long a retry waits for the first request with its key to finish the invitation. */
  retryWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function inviteAttached(store: EventStore, betId: string): Promise<boolean> {
  const recorded = await store.readStream(betStream(betId));
  return recorded.some((event) => event.type === 'BetInviteAttached');
}

/**
 * POST /api/bets: proposes the bet and, for a newcomer, sends the invitation tied to it. With an
 * Idempotency-Key only the request that reserved the key does the work; a retry answers with
 * the bet the first one made (waiting briefly if that one is still sending the invitation), even
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
    return createBet(deps, command, true, context);
  }
  const hash = requestHash(whatWasAsked(command));
  const earlier = await findBetRequest(store, creatorId, idempotencyKey);
  if (earlier) return createBet(deps, forBet(sameRequestOrRefuse(earlier, hash)), false, context);
  // Bad input is refused before anything is written, the key's reservation included.
  betDecider.decide(command, initialBetState());
  const reservation = await reserveBetRequest(
    store,
    { userId: creatorId, key: idempotencyKey, betId: command.data.betId, requestHash: hash },
    context,
  );
  return createBet(deps, forBet(reservation.betId), reservation.first, context);
}

/** Writes the proposal (a no-op if it exists) and the invitation, then answers as at creation. */
async function createBet(
  deps: ProposeBetDeps,
  command: ProposeBet,
  first: boolean,
  context: CommandContext & { actorId: string },
): Promise<{ body: CreateBetResponse; position: GlobalPosition | null }> {
  const betId = command.data.betId;
  const proposed = await runBetCommand(deps.store, betId, command, context);
  let position = proposed.position;
  const invitee = proposed.state.invitee;
  if (invitee && proposed.state.inviteCode === null) {
    if (first) {
      position = maxPosition(
        position,
        await inviteNewcomer(deps, betId, context.actorId, invitee, context),
      );
    } else {
      await waitForInvite(deps, betId);
    }
  }
  const answer = await createdBet(deps.store, betId, deps.publicUrl);
  return { body: answer.body, position: maxPosition(position, answer.position) };
}

/** The request's content, without what differs between two sends of the same request. */
function whatWasAsked(command: ProposeBet): Record<string, unknown> {
  const { betId, proposedAt, opponentIsFriend, ...asked } = command.data;
  void [betId, proposedAt, opponentIsFriend];
  return asked;
}

async function inviteNewcomer(
  deps: ProposeBetDeps,
  betId: string,
  creatorId: string,
  invitee: { email: string | null; phone: string | null; smsConsent: boolean },
  context: CommandContext,
): Promise<GlobalPosition | null> {
  const sent = await sendInvite(
    deps.store,
    {
      inviterId: creatorId,
      inviteeEmail: invitee.email,
      inviteePhone: invitee.phone,
      smsConsent: invitee.smsConsent,
      betId,
    },
    context,
    deps.publicUrl,
  );
  const attached = await runBetCommand(
    deps.store,
    betId,
    { type: 'AttachInvite', data: { inviteCode: sent.code } },
    context,
  );
  return maxPosition(sent.position, attached.position);
}

async function waitForInvite(deps: ProposeBetDeps, betId: string): Promise<void> {
  const sleep = deps.sleep ?? defaultSleep;
  const patience = deps.retryWaitMs ?? 5000;
  for (
    let waited = 0, delay = 20;
    waited < patience;
    waited += delay, delay = Math.min(delay * 2, 500)
  ) {
    if (await inviteAttached(deps.store, betId)) return;
    await sleep(delay);
  }
  if (await inviteAttached(deps.store, betId)) return;
  throw conflict(
    'Your first request with this Idempotency-Key is still sending the invitation. Please try again in a moment.',
  );
}
