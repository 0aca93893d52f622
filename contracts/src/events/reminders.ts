import { z } from 'zod';

/** One stream per bet, apart from the bet's own (and not named bet-*, which readers take for bets): the reminders sent about it. */
export const betRemindersStream = (betId: string) => `reminders-${betId}`;

/** Why a person is reminded to report: the end date came, or the other side reported a while ago. */
export const reminderReasons = ['end_date', 'no_answer_2d', 'no_answer_7d'] as const;
export type ReminderReason = (typeof reminderReasons)[number];

export const reminderEventSchemas = {
  /** `reminderId` names the reminder within the bet (its reason and person); sent once each. */
  ReminderSent: z.object({
    reminderId: z.string(),
    userId: z.string(),
    reason: z.enum(reminderReasons),
    dueAt: z.string(),
  }),
} as const;

export type ReminderSent = {
  type: 'ReminderSent';
  data: z.infer<typeof reminderEventSchemas.ReminderSent>;
};
export type ReminderEvent = ReminderSent;
