import { betStream, betStreamEventSchemas } from '@wagers/contracts/events/bet';
import { readBetEvent } from '@wagers/domain/bets/bet';
import {
  evolveDeadlines,
  initialDeadlineState,
  type DeadlineState,
} from '@wagers/domain/bets/deadlines';
import type { EventStore, RecordedEvent } from '@wagers/platform/event-store/port';

/** Whether an event is one of a bet's own (a bet stream also names the reminders' streams apart). */
export const isBetEvent = (event: RecordedEvent) =>
  event.streamId.startsWith('bet-') && event.type in betStreamEventSchemas;

/** The bet's deadline state after each of its events, in order: the last is today's. */
export async function deadlineHistory(store: EventStore, betId: string): Promise<DeadlineState[]> {
  let state = initialDeadlineState();
  const states: DeadlineState[] = [];
  for (const recorded of await store.readStream(betStream(betId))) {
    const event = readBetEvent(recorded);
    if (!event) continue;
    state = evolveDeadlines(state, event, recorded.metadata.occurredAt);
    states.push(state);
  }
  return states;
}

export async function currentDeadlineState(
  store: EventStore,
  betId: string,
): Promise<DeadlineState> {
  return (await deadlineHistory(store, betId)).at(-1) ?? initialDeadlineState();
}
