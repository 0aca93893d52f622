import type { CreateBetResponse } from '@wagers/contracts/api/bets';
import type { User } from '@wagers/contracts/api/user';
import { betStream, type BetProposed, type BetStreamEvent } from '@wagers/contracts/events/bet';
import { userStream } from '@wagers/contracts/events/user';
import { formatCents } from '@wagers/contracts/api/money';
import { maxPosition, type GlobalPosition } from '@wagers/contracts/position';
import type { EventStore } from '@wagers/platform/event-store/port';
import { readUserEvent, userDecider, type UserState } from '@wagers/domain/users/user';
import { readBetEvent } from '@wagers/domain/bets/bet';

/**
 * A user's state and the user object responses show, from one read of the user's own stream (the
 * command side has no read model).
 */
export async function readUser(
  store: EventStore,
  userId: string,
): Promise<{ state: UserState; user: User }> {
  const recorded = await store.readStream(userStream(userId));
  let state = userDecider.initialState();
  for (const event of recorded) {
    const domainEvent = readUserEvent(event);
    if (domainEvent) state = userDecider.evolve(state, domainEvent);
  }
  const registered = state.status === 'registered' ? state : null;
  const user: User = {
    id: userId,
    firstName: registered?.firstName ?? null,
    lastName: registered?.lastName ?? null,
    email: registered?.email ?? null,
    profileImageUrl: registered?.avatarUrl ?? null,
    createdAt: recorded[0]?.metadata.occurredAt ?? new Date(0).toISOString(),
  };
  return { state, user };
}

/** What a bet's creation left: the proposal and its invite, nothing later. */
export interface BetCreation {
  proposal: BetProposed['data'];
  inviteCode: string | null;
  /** The invite opens only with its signed link (every bet proposed since links were signed). */
  inviteSigned: boolean;
  createdAt: string;
  updatedAt: string;
  /** Where the creation's last event landed. */
  position: GlobalPosition | null;
}

/** The creation from the events the proposal just appended (all at `at`, the last at `position`). */
export function decidedCreation(
  events: BetStreamEvent[],
  at: string,
  position: GlobalPosition | null,
): BetCreation {
  const proposal = events.find((event) => event.type === 'BetProposed');
  if (!proposal) throw new Error('A proposal appends BetProposed');
  const invite = events.find((event) => event.type === 'BetInviteAttached');
  return {
    proposal: proposal.data,
    inviteCode: invite?.data.inviteCode ?? null,
    inviteSigned: invite?.data.signedLink === true,
    createdAt: at,
    updatedAt: at,
    position,
  };
}

/** The creation as the bet's stream recorded it: for a retry that appended nothing. */
export async function recordedCreation(store: EventStore, betId: string): Promise<BetCreation> {
  const recorded = await store.readStream(betStream(betId));
  let proposal: { data: BetProposed['data']; at: string } | null = null;
  let inviteCode: string | null = null;
  let inviteSigned = false;
  let position: GlobalPosition | null = null;
  let updatedAt: string | null = null;
  for (const event of recorded) {
    const domainEvent = readBetEvent(event);
    if (domainEvent?.type === 'BetProposed')
      proposal = { data: domainEvent.data, at: event.metadata.occurredAt };
    else if (domainEvent?.type === 'BetInviteAttached' && inviteCode === null) {
      inviteCode = domainEvent.data.inviteCode;
      inviteSigned = domainEvent.data.signedLink === true;
    } else continue;
    position = maxPosition(position, event.position);
    updatedAt = event.metadata.occurredAt;
  }
  if (!proposal) throw new Error(`Bet ${betId} has no proposal`);
  return {
    proposal: proposal.data,
    inviteCode,
    inviteSigned,
    createdAt: proposal.at,
    updatedAt: updatedAt ?? proposal.at,
    position,
  };
}

/**
 * The answer to POST /api/bets: the bet as its creation left it, so a retry with the same
 * Idempotency-Key gets the same answer as the first call.
 */
export function createdBet(
  creation: BetCreation,
  people: { creator: User; opponent: User | null },
  /** The code and link the newcomer's invite opens with (InviteLinks.linkFor). */
  invite: { code: string; inviteLink: string } | null,
): CreateBetResponse {
  const bet = creation.proposal;
  return {
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
    creator: people.creator,
    opponent: bet.opponentId ? people.opponent : null,
    creatorResolution: null,
    opponentResolution: null,
    winnerId: null,
    winner: null,
    invitee: bet.inviteeEmail ?? bet.inviteePhone,
    createdAt: creation.createdAt,
    updatedAt: creation.updatedAt,
    ...(invite ? { invite } : {}),
  };
}
