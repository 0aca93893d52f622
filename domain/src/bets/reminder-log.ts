import {
  betRemindersStream,
  reminderEventSchemas,
  type ReminderEvent,
  type ReminderSent,
} from '@wagers/contracts/events/reminders';
import { defineAggregate } from '@wagers/platform/aggregate';
import { schemaReader, type Decider } from '@wagers/platform/decider';

/** The reminders sent about one bet, by reminder id. */
export interface ReminderLogState {
  sent: string[];
}

export type RecordReminderSent = { type: 'RecordReminderSent'; data: ReminderSent['data'] };

export const reminderWasSent = (state: ReminderLogState, reminderId: string) =>
  state.sent.includes(reminderId);

export const reminderLogDecider: Decider<ReminderLogState, RecordReminderSent, ReminderEvent> = {
  initialState: () => ({ sent: [] }),
  /** A reminder recorded already (a retried job) is not recorded twice. */
  decide(command, state) {
    if (reminderWasSent(state, command.data.reminderId)) return [];
    return [{ type: 'ReminderSent', data: command.data }];
  },
  evolve: (state, event) => ({ sent: [...state.sent, event.data.reminderId] }),
};

/** reminders-{betId}. */
export const reminderLogAggregate = defineAggregate({
  stream: betRemindersStream,
  decider: reminderLogDecider,
  read: schemaReader<ReminderEvent>(reminderEventSchemas),
});
