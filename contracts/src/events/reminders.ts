import { z } from 'zod';

/** One stream per bet, apart from the bet's own (and not named bet-*, which readers take for bets): the reminders sent about it. */
export const betRemindersStream = (betId: string) => `reminders-${betId}`;

/** Why a person is reminded to report: the end date came, or the other side reported a while ago. */
export const reminderReasons = ['end_date', 'no_answer_2d', 'no_answer_7d'] as const;
export type ReminderReason = (typeof reminderReasons)[number];

const reminderData = z.object({
  reminderId: z.string(),
  userId: z.string(),
  reason: z.enum(reminderReasons),
  dueAt: z.string(),
});

export const reminderEventSchemas = {
  /** `reminderId` names the reminder within the bet (its reason and person); sent once each. */
  ReminderSent: reminderData,
  /** Due, but its person had switched reminders off: it is settled too, and never sent later. */
  ReminderNotWanted: reminderData,
} as const;

type ReminderData = z.infer<typeof reminderData>;
export type ReminderSent = { type: 'ReminderSent'; data: ReminderData };
export type ReminderNotWanted = { type: 'ReminderNotWanted'; data: ReminderData };
export type ReminderEvent = ReminderSent | ReminderNotWanted;
