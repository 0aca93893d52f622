import { describe, it } from 'vitest';
import type { ReminderSent } from '@wagers/contracts/events/reminders';
import { deciderSpec } from '@wagers/test-support/decider-spec';
import { OPPONENT } from './bet-fixtures.ts';
import { reminderLogDecider, type RecordReminderSent } from './reminder-log.ts';

const spec = deciderSpec(reminderLogDecider);
const reminder: ReminderSent['data'] = {
  reminderId: `end-date-${OPPONENT}`,
  userId: OPPONENT,
  reason: 'end_date',
  dueAt: '2030-06-20T12:00:00.000Z',
};
const record: RecordReminderSent = { type: 'RecordReminderSent', data: reminder };
const sent: ReminderSent = { type: 'ReminderSent', data: reminder };

describe('the record of reminders sent', () => {
  it('records a reminder once', () => {
    spec.given([]).when(record).then([sent]);
    spec.given([sent]).when(record).thenNothing();
  });
  it('keeps each reminder of the bet apart', () => {
    spec
      .given([sent])
      .when({ ...record, data: { ...reminder, reminderId: `no-answer-2d-${OPPONENT}` } })
      .then([{ ...sent, data: { ...reminder, reminderId: `no-answer-2d-${OPPONENT}` } }]);
  });
});
