import type { GlobalPosition } from '@wagers/contracts/position';
import type { CommandContext } from '@wagers/platform/decider';
import type { EventStore } from '@wagers/platform/event-store/port';
import { runBetCommand } from './run-bet-command.ts';

/**
 * Called by the invite-accept flow once the newcomer and the creator are friends: the newcomer
 * becomes the opponent and the bet is active. Idempotent; null when nothing changed (already
 * joined, or the bet was deleted or declined meanwhile).
 */
export async function joinBetFromInvite(
  store: EventStore,
  input: { betId: string; opponentId: string; inviteCode: string },
  context: CommandContext,
): Promise<GlobalPosition | null> {
  const result = await runBetCommand(
    store,
    input.betId,
    {
      type: 'JoinFromInvite',
      data: { opponentId: input.opponentId, inviteCode: input.inviteCode },
    },
    context,
  );
  return result.position;
}
