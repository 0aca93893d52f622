import { describe, it } from 'vitest';
import type { ReminderSent } from '@wagers/contracts/events/reminders';
import { deciderSpec } from '@wagers/test-support/decider-spec';
import { OPPONENT } from './bet-fixtures.ts';
import { reminderLogDecider, type RecordReminder } from './reminder-log.ts';

const spec = deciderSpec(reminderLogDecider);
const reminder: ReminderSent['data'] = {
  reminderId: `end-date-${OPPONENT}`,
  userId: OPPONENT,
  reason: 'end_date',
  dueAt: '2030-06-20T12:00:00.000Z',
};
const record: RecordReminder = { type: 'RecordReminder', data: { ...reminder, sent: true } };
const sent: ReminderSent = { type: 'ReminderSent', data: reminder };

describe('the record of reminders settled', () => {
  it('a reminder not wanted when due is settled too, and not sent later', () => {
    const notWanted = { type: 'ReminderNotWanted' as const, data: reminder };
    spec
      .given([])
      .when({ ...record, data: { ...reminder, sent: false } })
      .then([notWanted]);
    spec.given([notWanted]).when(record).thenNothing();
  });
  it('records a reminder once', () => {
    spec.given([]).when(record).then([sent]);
    spec.given([sent]).when(record).thenNothing();
  });
  it('keeps each reminder of the bet apart', () => {
    spec
      .given([sent])
      .when({ ...record, data: { ...record.data, reminderId: `no-answer-2d-${OPPONENT}` } })
      .then([{ ...sent, data: { ...reminder, reminderId: `no-answer-2d-${OPPONENT}` } }]);
  });
});
