import type { CreateBetResponse } from '@wagers/contracts/api/bets';
import type { User } from '@wagers/contracts/api/user';
import { betStream, type BetProposed } from '@wagers/contracts/events/bet';
import { userStream } from '@wagers/contracts/events/user';
import { formatCents } from '@wagers/contracts/api/money';
import { maxPosition, type GlobalPosition } from '@wagers/contracts/position';
import type { EventStore } from '@wagers/platform/event-store/port';
import { inviteLink } from '@wagers/domain/invites/links';
import { readUserEvent, userDecider } from '@wagers/domain/users/user';
import { readBetEvent } from '@wagers/domain/bets/bet';

/** A user object as responses show it, from the user's own stream (the command side has no read model). */
async function userObject(store: EventStore, userId: string): Promise<User> {
  const recorded = await store.readStream(userStream(userId));
  let state = userDecider.initialState();
  for (const event of recorded) {
    const domainEvent = readUserEvent(event);
    if (domainEvent) state = userDecider.evolve(state, domainEvent);
  }
  const registered = state.status === 'registered' ? state : null;
  return {
    id: userId,
    firstName: registered?.firstName ?? null,
    lastName: registered?.lastName ?? null,
    email: registered?.email ?? null,
    profileImageUrl: registered?.avatarUrl ?? null,
    createdAt: recorded[0]?.metadata.occurredAt ?? new Date(0).toISOString(),
  };
}

/**
 * The answer to POST /api/bets: the bet as its creation left it (the proposal and its invite,
 * nothing later), so a retry with the same Idempotency-Key gets the same answer as the first call.
 */
export async function createdBet(
  store: EventStore,
  betId: string,
  publicUrl: string,
): Promise<{ body: CreateBetResponse; position: GlobalPosition | null }> {
  const recorded = await store.readStream(betStream(betId));
  let proposal: { data: BetProposed['data']; at: string } | null = null;
  let inviteCode: string | null = null;
  let position: GlobalPosition | null = null;
  let updatedAt: string | null = null;
  for (const event of recorded) {
    const domainEvent = readBetEvent(event);
    if (domainEvent?.type === 'BetProposed')
      proposal = { data: domainEvent.data, at: event.metadata.occurredAt };
    else if (domainEvent?.type === 'BetInviteAttached' && inviteCode === null)
      inviteCode = domainEvent.data.inviteCode;
    else continue;
    position = maxPosition(position, event.position);
    updatedAt = event.metadata.occurredAt;
  }
  if (!proposal) throw new Error(`Bet ${betId} has no proposal`);
  const bet = proposal.data;
  const [creator, opponent] = await Promise.all([
    userObject(store, bet.creatorId),
    bet.opponentId ? userObject(store, bet.opponentId) : Promise.resolve(null),
  ]);
  const body: CreateBetResponse = {
    id: bet.betId,
    title: bet.title,
    description: bet.description,
    wagerType: bet.wagerType,
    wagerAmount: bet.wagerAmountCents === null ? null : formatCents(bet.wagerAmountCents),
    wagerAmountCents: bet.wagerAmountCents,
    wagerDescription: bet.wagerDescription,
    endDate: bet.endDate,
    validationMode: bet.validationMode,
    status: 'pending',
    creatorId: bet.creatorId,
    opponentId: bet.opponentId,
    creator,
    opponent,
    creatorResolution: null,
    opponentResolution: null,
    winnerId: null,
    winner: null,
    invitee: bet.inviteeEmail ?? bet.inviteePhone,
    createdAt: proposal.at,
    updatedAt: updatedAt ?? proposal.at,
    ...(inviteCode
      ? { invite: { code: inviteCode, inviteLink: inviteLink(publicUrl, inviteCode) } }
      : {}),
  };
  return { body, position };
}
