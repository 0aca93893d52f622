import { createHash } from 'node:crypto';
import { smsOptOutEventSchemas, type SmsOptOutEvent } from '@wagers/contracts/events/invite';
import { schemaReader, type Decider } from '@wagers/platform/decider';
import { defineAggregate, load } from '@wagers/platform/aggregate';
import type { EventStore } from '@wagers/platform/event-store/port';

/** One stream per E.164 number, hashed so stream names do not list phone numbers. */
export const smsOptOutStream = (phone: string) =>
  `smsoptout-${createHash('sha256').update(phone).digest('hex')}`;

export type SmsOptOutState = { optedOut: boolean };
export type SmsOptOutCommand =
  | { type: 'OptOut'; data: { phone: string; keyword: string } }
  | { type: 'OptIn'; data: { phone: string; keyword: string } };

/** Twilio's standard opt-out and opt-in keywords (matched on the whole trimmed message). */
export const OPT_OUT_KEYWORDS = [
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'REVOKE',
  'OPTOUT',
];
export const OPT_IN_KEYWORDS = ['START', 'UNSTOP', 'YES'];

export const smsOptOutDecider: Decider<SmsOptOutState, SmsOptOutCommand, SmsOptOutEvent> = {
  initialState: () => ({ optedOut: false }),
  decide: (command, state) => {
    switch (command.type) {
      case 'OptOut':
        return state.optedOut ? [] : [{ type: 'SmsOptedOut', data: command.data }];
      case 'OptIn':
        return state.optedOut ? [{ type: 'SmsOptedIn', data: command.data }] : [];
      default: {
        const unknown: never = command;
        return unknown;
      }
    }
  },
  evolve: (_state, event) => ({ optedOut: event.type === 'SmsOptedOut' }),
};

export const readSmsOptOutEvent = schemaReader<SmsOptOutEvent>(smsOptOutEventSchemas);

/** One stream per number; its state says whether the number said STOP (and not START since). */
export const smsOptOutAggregate = defineAggregate({
  stream: smsOptOutStream,
  decider: smsOptOutDecider,
  read: readSmsOptOutEvent,
});

/** Whether `phone` has replied STOP (and not START since); false for no number. */
export const isOptedOut = async (store: EventStore, phone: string | null): Promise<boolean> =>
  phone !== null && (await load(store, smsOptOutAggregate, phone)).optedOut;
