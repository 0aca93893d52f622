import type { GlobalPosition } from '@wagers/contracts/position';
import { inviteAggregate } from '@wagers/domain/invites/invite';
import { handle, loadRead } from '@wagers/platform/aggregate';
import type { CommandContext } from '@wagers/platform/decider';
import type { EventStore } from '@wagers/platform/event-store/port';
import { loadUser } from '../users/load-user.ts';

export interface AcceptedInvite {
  friendId: string;
  betId: string | null;
  position: GlobalPosition | null;
}

/**
 * One append on the invite, none when the accepter accepted it already (answered the same again).
 * The friendship and, for a bet's invite, the newcomer joining the bet follow from InviteAccepted
 * in a process manager; the accepter's next read waits for both.
 */
export async function acceptInvite(
  store: EventStore,
  /** What the link's code named: the invite's code, and whether it came with its signature. */
  { code, signed }: { code: string; signed: boolean },
  accepterId: string,
  context: CommandContext,
): Promise<AcceptedInvite> {
  const { state: invite, read } = await loadRead(store, inviteAggregate, code);
  const inviterDeleted =
    invite.status !== 'none' && (await loadUser(store, invite.inviterId)).status === 'deleted';
  const accepted = await handle(
    store,
    inviteAggregate,
    code,
    { type: 'AcceptInvite', data: { actorId: accepterId, inviterDeleted, signedLink: signed } },
    context,
    { read },
  );
  // Accepted by this person already when nothing was written: the same answer, from the state.
  if (accepted.state.status === 'none') throw new Error('The invite was not accepted');
  const { inviterId, betId } = accepted.state;
  return { friendId: inviterId, betId, position: accepted.position };
}
