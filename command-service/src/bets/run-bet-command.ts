import { betStream } from '@wagers/contracts/events/bet';
import { handleCommand, type CommandContext } from '@wagers/platform/decider';
import type { EventStore } from '@wagers/platform/event-store/port';
import { readBetEvent } from './bet.ts';
import type { BetCommand } from './commands.ts';
import { betDecider } from './decide.ts';

/** One command on bet-{betId}: load, fold, decide, append (retrying on a concurrent write). */
export function runBetCommand(
  store: EventStore,
  betId: string,
  command: BetCommand,
  context: CommandContext,
) {
  return handleCommand(store, betStream(betId), betDecider, readBetEvent, command, context);
}
