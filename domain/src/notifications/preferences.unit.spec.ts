import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@wagers/test-support/decider-spec';
import type {
  EmailNotificationsChanged,
  SmsNotificationsChanged,
} from '@wagers/contracts/events/notification-preferences';
import {
  emailsKind,
  preferencesDecider,
  textsKind,
  type PreferencesCommand,
} from './preferences.ts';
import { readUnsubscribeToken, unsubscribeToken } from './unsubscribe-token.ts';

const spec = deciderSpec(preferencesDecider);
const set = (
  email: boolean,
  via: 'profile' | 'unsubscribe_link' = 'profile',
): PreferencesCommand => ({
  type: 'SetEmailNotifications',
  data: { userId: 'u1', kind: 'bet_completed', email, via },
});
const changed = (email: boolean, via: 'profile' | 'unsubscribe_link' = 'profile') =>
  ({
    type: 'EmailNotificationsChanged',
    data: { userId: 'u1', kind: 'bet_completed', email, via },
  }) satisfies EmailNotificationsChanged;

describe('email notification preferences', () => {
  it('every kind is on by default; switching one off is recorded', () => {
    expect(emailsKind(preferencesDecider.initialState(), 'bet_completed')).toBe(true);
    spec
      .given([])
      .when(set(false, 'unsubscribe_link'))
      .then([changed(false, 'unsubscribe_link')]);
  });
  it('setting what is already set records nothing (a second unsubscribe click)', () => {
    spec.given([]).when(set(true)).thenNothing();
    spec
      .given([changed(false)])
      .when(set(false, 'unsubscribe_link'))
      .thenNothing();
  });
  it('switches back on', () => {
    spec
      .given([changed(false)])
      .when(set(true))
      .then([changed(true)]);
  });
});

describe('text message notification preferences', () => {
  const setSms = (sms: boolean): PreferencesCommand => ({
    type: 'SetSmsNotifications',
    data: { userId: 'u1', kind: 'bet_completed', sms, via: 'profile' },
  });
  const smsChanged = (sms: boolean) =>
    ({
      type: 'SmsNotificationsChanged',
      data: { userId: 'u1', kind: 'bet_completed', sms, via: 'profile' },
    }) satisfies SmsNotificationsChanged;

  it('every kind is off by default; switching one on is recorded, apart from email', () => {
    expect(textsKind(preferencesDecider.initialState(), 'bet_completed')).toBe(false);
    spec
      .given([])
      .when(setSms(true))
      .then([smsChanged(true)]);
    const state = [smsChanged(true), changed(false)].reduce(
      preferencesDecider.evolve,
      preferencesDecider.initialState(),
    );
    expect(textsKind(state, 'bet_completed')).toBe(true);
    expect(emailsKind(state, 'bet_completed')).toBe(false);
  });
  it('setting what is already set records nothing; switches back off', () => {
    spec.given([]).when(setSms(false)).thenNothing();
    spec
      .given([smsChanged(true)])
      .when(setSms(false))
      .then([smsChanged(false)]);
  });
});

describe('unsubscribe tokens', () => {
  it('name the person and kind they were made for', () => {
    const token = unsubscribeToken('s'.repeat(32), 'user-1', 'friend_request');
    expect(readUnsubscribeToken('s'.repeat(32), token)).toEqual({
      userId: 'user-1',
      kind: 'friend_request',
    });
  });
  it('refuse another secret, an altered payload or garbage', () => {
    const token = unsubscribeToken('s'.repeat(32), 'user-1', 'friend_request');
    expect(readUnsubscribeToken('t'.repeat(32), token)).toBeNull();
    const [, sig] = token.split('.');
    const forged = `${Buffer.from('user-2:friend_request').toString('base64url')}.${sig}`;
    expect(readUnsubscribeToken('s'.repeat(32), forged)).toBeNull();
    expect(readUnsubscribeToken('s'.repeat(32), 'nonsense')).toBeNull();
  });
});
