import { inviteStream } from '@wagers/contracts/events/invite';
import type { GlobalPosition } from '@wagers/contracts/position';
import { handleCommand, type CommandContext } from '@wagers/platform/decider';
import type { EventStore } from '@wagers/platform/event-store/port';
import { foldStream } from '../users/load-user.ts';
import { inviteDecider, readInviteEvent } from './invite.ts';
import { isOptedOut } from './sms-opt-out.ts';

/**
 * Asks the notifier to deliver a pending invite again. Only its inviter may (context.actorId);
 * a system actor (null) may too, for process managers.
 */
export async function resendInvite(
  store: EventStore,
  code: string,
  context: CommandContext,
): Promise<GlobalPosition> {
  const current = await foldStream(store, inviteStream(code), inviteDecider, readInviteEvent);
  const phone = current.status === 'none' ? null : current.inviteePhone;
  const result = await handleCommand(
    store,
    inviteStream(code),
    inviteDecider,
    readInviteEvent,
    {
      type: 'ResendInvite',
      data: {
        actorId: context.actorId,
        phoneOptedOut: phone ? await isOptedOut(store, phone) : false,
      },
    },
    context,
  );
  if (!result.position) throw new Error('InviteResent was not written');
  return result.position;
}
