import {
  betRemindersStream,
  reminderEventSchemas,
  type ReminderEvent,
  type ReminderSent,
} from '@wagers/contracts/events/reminders';
import { defineAggregate } from '@wagers/platform/aggregate';
import { schemaReader, type Decider } from '@wagers/platform/decider';

/** The reminders of one bet that are settled (sent, or not wanted when due), by reminder id. */
export interface ReminderLogState {
  settled: string[];
}

/** `sent`: the email went out; otherwise its person did not want reminders when it fell due. */
export type RecordReminder = {
  type: 'RecordReminder';
  data: ReminderSent['data'] & { sent: boolean };
};

export const reminderIsSettled = (state: ReminderLogState, reminderId: string) =>
  state.settled.includes(reminderId);

export const reminderLogDecider: Decider<ReminderLogState, RecordReminder, ReminderEvent> = {
  initialState: () => ({ settled: [] }),
  /** A reminder recorded already (a retried job) is not recorded twice. */
  decide(command, state) {
    const { sent, ...data } = command.data;
    if (reminderIsSettled(state, data.reminderId)) return [];
    return [{ type: sent ? 'ReminderSent' : 'ReminderNotWanted', data }];
  },
  evolve: (state, event) => ({ settled: [...state.settled, event.data.reminderId] }),
};

/** reminders-{betId}. */
export const reminderLogAggregate = defineAggregate({
  stream: betRemindersStream,
  decider: reminderLogDecider,
  read: schemaReader<ReminderEvent>(reminderEventSchemas),
});
