import type { ReminderReason } from '@wagers/contracts/events/reminders';
import type { Email } from '../mailer.ts';
import { unsubscribableEmail } from './notice.ts';
import { oneLine } from './one-line.ts';

export interface ReminderMessage {
  reason: ReminderReason;
  betTitle: string;
  /** Who reported and waits for an answer; null for an end-date reminder. */
  reporterName: string | null;
  /** When the reporter first reported (ISO); null for an end-date reminder. */
  reportedAt: string | null;
  /** When the reporter's report will stand without an answer (ISO), if the bet says so. */
  standsAt: string | null;
  link: string;
  unsubscribeLink: string;
}

const day = (iso: string) =>
  `${new Date(iso).toLocaleString('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' })} UTC`;

const since = (m: ReminderMessage) => (m.reportedAt ? ` on ${day(m.reportedAt)}` : '');

function wording(m: ReminderMessage): { subject: string; lines: string[] } {
  const bet = `"${oneLine(m.betTitle)}"`;
  const reporter = m.reporterName ? oneLine(m.reporterName) : 'Your friend';
  switch (m.reason) {
    case 'end_date':
      return {
        subject: `${bet} has reached its end date: who won?`,
        lines: [`Your bet ${bet} has reached its end date. Report who won on Wagers.`],
      };
    case 'no_answer_2d':
      return {
        subject: `${reporter} is waiting for your report on ${bet}`,
        lines: [
          `${reporter} reported the outcome of ${bet}${since(m)}. Report yours: do you agree?`,
          ...(m.standsAt
            ? [`If you have not answered by ${day(m.standsAt)}, ${reporter}'s report stands.`]
            : []),
        ],
      };
    case 'no_answer_7d':
      return {
        subject: `Still waiting for your report on ${bet}`,
        lines: [`${reporter} reported the outcome of ${bet}${since(m)}. Report yours on Wagers.`],
      };
  }
}

/** A reminder to report a bet's outcome, with a one-click unsubscribe from reminders. */
export function reminderEmail(to: string, m: ReminderMessage): Email {
  return unsubscribableEmail(to, {
    ...wording(m),
    link: m.link,
    unsubscribeLink: m.unsubscribeLink,
  });
}
