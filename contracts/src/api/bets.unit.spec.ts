import { describe, expect, it } from 'vitest';
import { createBetRequestSchema, type CreateBetBody } from './bets.ts';

const base: CreateBetBody = {
  title: 'Rain on Sunday',
  description: 'It will rain in Paris on Sunday',
  wagerType: 'money',
  wagerAmount: '12.50',
  opponentId: 'friend-1',
};

/** The fields the schema names for a body, or [] when it takes it. */
function refused(body: CreateBetBody): string[] {
  const result = createBetRequestSchema.safeParse(body);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
}

describe('POST /api/bets body: one opponent', () => {
  it('takes a friend, an email, or a phone with consent', () => {
    expect(refused(base)).toEqual([]);
    expect(refused({ ...base, opponentId: null, inviteeEmail: 'nora@example.com' })).toEqual([]);
    expect(
      refused({ ...base, opponentId: undefined, inviteePhone: '+14155550100', smsConsent: true }),
    ).toEqual([]);
  });
  it('refuses no opponent at all, a friend and a newcomer, and an email and a phone', () => {
    expect(refused({ ...base, opponentId: ' ' })).toEqual(['opponentId']);
    expect(refused({ ...base, inviteeEmail: 'nora@example.com' })).toEqual(['opponentId']);
    expect(
      refused({
        ...base,
        opponentId: null,
        inviteeEmail: 'nora@example.com',
        inviteePhone: '+14155550100',
        smsConsent: true,
      }),
    ).toEqual(['inviteePhone']);
  });
  it('refuses a newcomer the invite rules refuse, naming the field with their words', () => {
    const issues = (body: Partial<CreateBetBody>) => {
      const result = createBetRequestSchema.safeParse({ ...base, opponentId: null, ...body });
      return result.success
        ? []
        : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
    };
    expect(issues({ inviteeEmail: 'nora@' })).toEqual([
      ['inviteeEmail', 'Enter a valid email address'],
    ]);
    expect(issues({ inviteePhone: '4155550123', smsConsent: true })).toEqual([
      ['inviteePhone', 'Enter the phone number in international format, e.g. +1 415 555 0123'],
    ]);
  });
  it('refuses a phone without consent, with the spec’s words', () => {
    const result = createBetRequestSchema.safeParse({
      ...base,
      opponentId: null,
      inviteePhone: '+14155550100',
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      path: ['smsConsent'],
      message:
        'SMS Consent Required: Please confirm you have permission to send SMS to this number',
    });
  });
});

describe('POST /api/bets body: the wager', () => {
  it('takes an amount of one cent or more with at most two decimals', () => {
    for (const wagerAmount of ['0.01', '12.5', 12.5, '123456789.99']) {
      expect(refused({ ...base, wagerAmount })).toEqual([]);
    }
  });
  it('refuses a missing, zero, negative or over-precise amount', () => {
    for (const wagerAmount of [null, '', '0', 0, '0.00', '-1', '12.345', 'ten']) {
      expect(refused({ ...base, wagerAmount })).toEqual(['wagerAmount']);
    }
  });
  it('needs a description for a custom wager, and no amount', () => {
    expect(refused({ ...base, wagerType: 'custom', wagerAmount: null })).toEqual([
      'wagerDescription',
    ]);
    expect(
      refused({ ...base, wagerType: 'custom', wagerAmount: null, wagerDescription: 'Dinner' }),
    ).toEqual([]);
  });
});
