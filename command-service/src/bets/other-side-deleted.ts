import { partyOf } from '@wagers/domain/bets/access';
import { betAggregate } from '@wagers/domain/bets/decide';
import { load } from '@wagers/platform/aggregate';
import type { EventStore } from '@wagers/platform/event-store/port';
import { loadUser } from '../users/load-user.ts';

/**
 * Whether the other side of the caller's bet has deleted their account, from the bet's and their
 * own streams, read before deciding: nobody is left to answer the caller's report. False for
 * someone who is not a side of the bet (the decider refuses them).
 */
export async function otherSideDeleted(
  store: EventStore,
  betId: string,
  actorId: string,
): Promise<boolean> {
  const bet = await load(store, betAggregate, betId);
  const party = partyOf(bet, actorId);
  const otherId =
    party === 'creator' ? bet.opponentId : party === 'opponent' ? bet.creatorId : null;
  return otherId !== null && (await loadUser(store, otherId)).status === 'deleted';
}
