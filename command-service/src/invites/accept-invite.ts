import { friendshipStream } from '@wagers/contracts/events/friendship';
import { inviteStream } from '@wagers/contracts/events/invite';
import { maxPosition, type GlobalPosition } from '@wagers/contracts/position';
import { handleCommand, type CommandContext } from '@wagers/platform/decider';
import type { EventStore } from '@wagers/platform/event-store/port';
import { joinBetFromInvite } from '../bets/join-from-invite.ts';
import { friendshipDecider, readFriendshipEvent } from '../friends/friendship.ts';
import { foldStream } from '../users/load-user.ts';
import { inviteDecider, readInviteEvent } from './invite.ts';

export interface AcceptedInvite {
  friendId: string;
  betId: string | null;
  position: GlobalPosition | null;
}

/**
 * Records the acceptance, then makes the two friends and, for a bet's invite, joins the newcomer
 * to the bet. The follow-ups are idempotent: if a crash cut them short, the accepter's retry (which
 * the invite refuses with a 409) finishes them before answering.
 */
export async function acceptInvite(
  store: EventStore,
  code: string,
  accepterId: string,
  context: CommandContext,
): Promise<AcceptedInvite> {
  const current = await foldStream(store, inviteStream(code), inviteDecider, readInviteEvent);
  if (current.status === 'accepted' && current.acceptedBy === accepterId) {
    await completeAcceptance(
      store,
      { code, inviterId: current.inviterId, accepterId, betId: current.betId },
      context,
    );
  }
  const accepted = await handleCommand(
    store,
    inviteStream(code),
    inviteDecider,
    readInviteEvent,
    { type: 'AcceptInvite', data: { actorId: accepterId } },
    context,
  );
  const event = accepted.events.find((e) => e.type === 'InviteAccepted');
  if (!event) throw new Error('InviteAccepted was not written');
  const { inviterId, betId } = event.data;
  const followUps = await completeAcceptance(
    store,
    { code, inviterId, accepterId, betId },
    context,
  );
  return { friendId: inviterId, betId, position: maxPosition(accepted.position, followUps) };
}

async function completeAcceptance(
  store: EventStore,
  invite: { code: string; inviterId: string; accepterId: string; betId: string | null },
  context: CommandContext,
): Promise<GlobalPosition | null> {
  const friendship = await handleCommand(
    store,
    friendshipStream(invite.inviterId, invite.accepterId),
    friendshipDecider,
    readFriendshipEvent,
    {
      type: 'BefriendThroughInvite',
      data: { inviterId: invite.inviterId, inviteeId: invite.accepterId, inviteCode: invite.code },
    },
    context,
  );
  const joined = invite.betId
    ? await joinBetFromInvite(
        store,
        { betId: invite.betId, opponentId: invite.accepterId, inviteCode: invite.code },
        context,
      )
    : null;
  return maxPosition(friendship.position, joined);
}
