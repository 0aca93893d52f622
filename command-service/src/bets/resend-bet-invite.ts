import { betStream } from '@wagers/contracts/events/bet';
import { maxPosition, type GlobalPosition } from '@wagers/contracts/position';
import type { CommandContext } from '@wagers/platform/decider';
import type { EventStore } from '@wagers/platform/event-store/port';
import { resendInvite } from '../invites/resend-invite.ts';
import { foldStream } from '../users/load-user.ts';
import { readBetEvent } from './bet.ts';
import type { ResendInvite } from './commands.ts';
import { betDecider } from './decide.ts';
import { ensureBetInvite } from './propose-bet.ts';
import { runBetCommand } from './run-bet-command.ts';

/**
 * ResendInvite: the bet's rules say whether the creator may (checked before anything is sent),
 * the invite sends it again through the notifier, and the bet records that it did.
 */
export async function resendBetInvite(
  deps: { store: EventStore; publicUrl: string },
  betId: string,
  actorId: string,
  context: CommandContext,
): Promise<GlobalPosition | null> {
  const { store } = deps;
  const command: ResendInvite = { type: 'ResendInvite', data: { actorId } };
  let state = await foldStream(store, betStream(betId), betDecider, readBetEvent);
  if (state.creatorId === actorId) {
    // A crash may have left the first invitation unsent; if so, sending it is the resend.
    const finished = await ensureBetInvite(deps, betId, context);
    if (finished) return finished;
    state = await foldStream(store, betStream(betId), betDecider, readBetEvent);
  }
  const [event] = betDecider.decide(command, state);
  if (event?.type !== 'BetInviteResent') return null;
  const sent = await resendInvite(store, event.data.inviteCode, context);
  const recorded = await runBetCommand(store, betId, command, context);
  return maxPosition(sent, recorded.position);
}
