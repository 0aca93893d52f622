import type { z } from 'zod';
import type { createBetRequestSchema, CreateBetResponse } from '@wagers/contracts/api/bets';
import { maxPosition, type GlobalPosition } from '@wagers/contracts/position';
import {
  requestedNewcomer,
  requestedOpponent,
  toProposeBet,
} from '@wagers/domain/bets/create-request';
import { betAggregate } from '@wagers/domain/bets/decide';
import { smsOptOutAggregate } from '@wagers/domain/invites/sms-opt-out';
import { handle, load } from '@wagers/platform/aggregate';
import type { CommandContext } from '@wagers/platform/decider';
import { unauthorized } from '@wagers/platform/errors';
import type { EventStore } from '@wagers/platform/event-store/port';
import { newInviteCode } from '../invites/send-invite.ts';
import { loadUser } from '../users/load-user.ts';
import { areFriends } from './are-friends.ts';
import { createdBet } from './created-bet.ts';
import { betIdForKey, requestHash } from './idempotency.ts';

type CreateBetBody = z.output<typeof createBetRequestSchema>;

export interface ProposeBetDeps {
  store: EventStore;
  publicUrl: string;
}

/**
 * POST /api/bets: one append on the new bet's stream, holding the proposal and, for a newcomer,
 * the invite code (a process manager sends the invite). With an Idempotency-Key the bet id
 * derives from the key, so a retry finds the bet the first request made and answers as it did,
 * even if the request would no longer pass today (an end date that has since gone by).
 */
export async function proposeNewBet(
  deps: ProposeBetDeps,
  body: CreateBetBody,
  idempotencyKey: string | null,
  context: CommandContext & { actorId: string },
): Promise<{ body: CreateBetResponse; position: GlobalPosition | null }> {
  const { store } = deps;
  const creatorId = context.actorId;
  const opponentId = requestedOpponent(body);
  const newcomer = requestedNewcomer(body);
  const [creator, opponentIsFriend, opponentDeleted, inviteePhoneOptedOut] = await Promise.all([
    loadUser(store, creatorId),
    opponentId ? areFriends(store, creatorId, opponentId) : false,
    opponentId ? loadUser(store, opponentId).then((user) => user.status === 'deleted') : false,
    newcomer?.phone
      ? load(store, smsOptOutAggregate, newcomer.phone).then((number) => number.optedOut)
      : false,
  ]);
  if (creator.status !== 'registered' || creator.email === null) throw unauthorized();
  const betId = idempotencyKey ? betIdForKey(creatorId, idempotencyKey) : context.newId();
  const command = toProposeBet(
    body,
    { betId, creatorId, proposedAt: context.now },
    {
      opponentIsFriend,
      opponentDeleted,
      creatorEmail: creator.email,
      inviteePhoneOptedOut,
      inviteCode: newcomer ? newInviteCode() : null,
      requestHash: idempotencyKey ? requestHash(body) : null,
    },
  );
  const proposed = await handle(store, betAggregate, betId, command, context);
  const answer = await createdBet(store, betId, deps.publicUrl);
  return { body: answer.body, position: maxPosition(proposed.position, answer.position) };
}
