import type { z } from 'zod';
import type { BetStreamEvent } from '@wagers/contracts/events/bet';
import type { createBetRequestSchema, CreateBetResponse } from '@wagers/contracts/api/bets';
import type { GlobalPosition } from '@wagers/contracts/position';
import {
  requestedNewcomer,
  requestedOpponent,
  toProposeBet,
} from '@wagers/domain/bets/create-request';
import type { ProposeBet } from '@wagers/domain/bets/commands';
import { betAggregate } from '@wagers/domain/bets/decide';
import { isOptedOut, smsOptOutAggregate } from '@wagers/domain/invites/sms-opt-out';
import { handle } from '@wagers/platform/aggregate';
import { toEventData, type CommandContext } from '@wagers/platform/decider';
import { unauthorized } from '@wagers/platform/errors';
import { userStream } from '@wagers/contracts/events/user';
import { friendshipAggregate } from '@wagers/domain/friends/friendship';
import { withStreamsRead } from '@wagers/platform/event-store/page-streams';
import type { EventStore } from '@wagers/platform/event-store/port';
import type { InviteLinks } from '@wagers/domain/invites/links';
import { newInviteCode } from '../invites/send-invite.ts';
import { areFriends } from './are-friends.ts';
import { createdBet, decidedCreation, readUser, recordedCreation } from './created-bet.ts';
import { betIdForKey, requestHash } from './idempotency.ts';

type CreateBetBody = z.output<typeof createBetRequestSchema>;

export interface ProposeBetDeps {
  store: EventStore;
  links: InviteLinks;
}

/**
 * POST /api/bets: one append on the new bet's stream, holding the proposal and, for a newcomer,
 * the invite code (a process manager sends the invite). With an Idempotency-Key the bet id
 * derives from the key, so a retry finds the bet the first request made and answers as it did,
 * even if the request would no longer pass today (an end date that has since gone by).
 *
 * The answer comes from the events just decided and the people read before deciding; only a
 * retry, which appends nothing, reads the bet's stream for it.
 */
export async function proposeNewBet(
  deps: ProposeBetDeps,
  body: CreateBetBody,
  idempotencyKey: string | null,
  context: CommandContext & { actorId: string },
  /** Counted once the proposal has passed every rule, before it is appended (an invite's limits). */
  beforeAppend?: () => Promise<void>,
): Promise<{
  body: CreateBetResponse;
  position: GlobalPosition | null;
  /** What this request appended: nothing for a retry. */
  events: BetStreamEvent[];
}> {
  const { store } = deps;
  const creatorId = context.actorId;
  const opponentId = requestedOpponent(body);
  const newcomer = requestedNewcomer(body);
  // Everything the decision rests on, in one read.
  const read = await withStreamsRead(store, [
    userStream(creatorId),
    ...(opponentId
      ? [userStream(opponentId), friendshipAggregate.stream([creatorId, opponentId])]
      : []),
    ...(newcomer?.phone ? [smsOptOutAggregate.stream(newcomer.phone)] : []),
  ]);
  const [creator, opponent, opponentIsFriend, inviteePhoneOptedOut] = await Promise.all([
    readUser(read, creatorId),
    opponentId ? readUser(read, opponentId) : null,
    opponentId ? areFriends(read, creatorId, opponentId) : false,
    isOptedOut(read, newcomer?.phone ?? null),
  ]);
  if (creator.state.status !== 'registered' || creator.state.email === null) throw unauthorized();
  const betId = idempotencyKey ? betIdForKey(creatorId, idempotencyKey) : context.newId();
  const command = toProposeBet(
    body,
    { betId, creatorId, proposedAt: context.now },
    {
      opponentIsFriend,
      opponentDeleted: opponent?.state.status === 'deleted',
      creatorEmail: creator.state.email,
      creatorPhone: creator.state.phone,
      inviteePhoneOptedOut,
      inviteCode: newcomer ? newInviteCode() : null,
      requestHash: idempotencyKey ? requestHash(body) : null,
    },
  );
  const proposed = idempotencyKey
    ? await handle(store, betAggregate, betId, command, context, { beforeAppend })
    : await proposeOnFreshId(store, betId, command, context, beforeAppend);
  const creation =
    proposed.events.length > 0
      ? decidedCreation(proposed.events, context.now.toISOString(), proposed.position)
      : await recordedCreation(store, betId);
  // A retry answers for the bet its key made, whoever this request names.
  const recordedOpponent = creation.proposal.opponentId;
  const people = {
    creator: creator.user,
    opponent:
      recordedOpponent === opponentId || recordedOpponent === null
        ? (opponent?.user ?? null)
        : (await readUser(store, recordedOpponent)).user,
  };
  const invite =
    creation.inviteCode === null
      ? null
      : await deps.links.linkFor(creation.inviteCode, creation.inviteSigned);
  return {
    body: createdBet(creation, people, invite),
    position: creation.position,
    events: proposed.events,
  };
}

/**
 * A bet id drawn fresh for this request names a stream nobody has written: decide on the
 * initial state and append expecting no stream, without reading it first.
 */
async function proposeOnFreshId(
  store: EventStore,
  betId: string,
  command: ProposeBet,
  context: CommandContext,
  beforeAppend?: () => Promise<void>,
): Promise<{ events: BetStreamEvent[]; position: GlobalPosition | null }> {
  const { decider, stream } = betAggregate;
  const events = decider.decide(command, decider.initialState());
  await beforeAppend?.();
  const appended = await store.appendToStream(
    stream(betId),
    events.map((event) => toEventData(event, context)),
    { expectedRevision: 'no_stream' },
  );
  return { events, position: appended.position };
}
