import { inviteEventSchemas } from '@wagers/contracts/events/invite';
import { maxPosition } from '@wagers/contracts/position';
import { betAggregate } from '@wagers/domain/bets/decide';
import { friendshipAggregate } from '@wagers/domain/friends/friendship';
import { handle } from '@wagers/platform/aggregate';
import type { EventStore } from '@wagers/platform/event-store/port';
import type { ProcessManager } from './process-manager.ts';

/** The event types this manager reacts to. */
export const INVITE_ACCEPTANCE_TRIGGERS: ReadonlySet<string> = new Set(['InviteAccepted']);

/**
 * An accepted invite makes the two people friends and, for a bet's invite, makes the newcomer the
 * bet's opponent. Both are no-ops once done (already friends, already joined), and joining a bet
 * withdrawn meanwhile changes nothing: the friendship stands.
 */
export function inviteAcceptance(store: EventStore): ProcessManager {
  return {
    name: 'pm-invite-acceptance',
    reactsTo: INVITE_ACCEPTANCE_TRIGGERS,
    async react(event, context) {
      const { code, inviterId, acceptedBy, betId } = inviteEventSchemas.InviteAccepted.parse(
        event.data,
      );
      const friends = await handle(
        store,
        friendshipAggregate,
        [inviterId, acceptedBy],
        {
          type: 'BefriendThroughInvite',
          data: { inviterId, inviteeId: acceptedBy, inviteCode: code },
        },
        context,
      );
      if (!betId) return friends.position;
      const joined = await handle(
        store,
        betAggregate,
        betId,
        { type: 'JoinFromInvite', data: { opponentId: acceptedBy, inviteCode: code } },
        context,
      );
      return maxPosition(friends.position, joined.position);
    },
  };
}
