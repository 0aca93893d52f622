import { describe, it } from 'vitest';
import type { SmsOptOutEvent } from '@wagers/contracts/events/invite';
import { deciderSpec } from '@wagers/test-support/decider-spec';
import { smsOptOutDecider } from './sms-opt-out.ts';

const spec = deciderSpec(smsOptOutDecider);
const phone = '+14155550123';
const stopped: SmsOptOutEvent = { type: 'SmsOptedOut', data: { phone, keyword: 'STOP' } };
const started: SmsOptOutEvent = { type: 'SmsOptedIn', data: { phone, keyword: 'START' } };

describe('SMS opt-out decider', () => {
  describe('never opted out', () => {
    it('records STOP', () =>
      spec
        .given([])
        .when({ type: 'OptOut', data: { phone, keyword: 'STOP' } })
        .then([stopped]));
    it('ignores START', () =>
      spec
        .given([])
        .when({ type: 'OptIn', data: { phone, keyword: 'START' } })
        .thenNothing());
  });

  describe('opted out', () => {
    it('ignores another STOP', () =>
      spec
        .given([stopped])
        .when({ type: 'OptOut', data: { phone, keyword: 'STOP' } })
        .thenNothing());
    it('records START', () =>
      spec
        .given([stopped])
        .when({ type: 'OptIn', data: { phone, keyword: 'START' } })
        .then([started]));
  });

  describe('opted back in', () => {
    it('records a new STOP', () =>
      spec
        .given([stopped, started])
        .when({ type: 'OptOut', data: { phone, keyword: 'STOP' } })
        .then([stopped]));
  });
});
