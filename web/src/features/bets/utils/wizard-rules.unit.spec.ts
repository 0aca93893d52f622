import { describe, expect, it } from 'vitest';
import { newDraft, type BetDraft } from './bet-draft.ts';
import { problemText, stepProblem, submitProblem, toCreateBetRequest } from './wizard-rules.ts';

const today = '2025-10-25';
const draft = (patch: Partial<BetDraft> = {}): BetDraft => ({ ...newDraft(true), ...patch });
const complete = draft({
  selectedFriendId: 'friend-1',
  title: 'Lakers win',
  description: 'Tonight, any margin',
  wagerAmount: '12.50',
});

describe('step 1: who to bet with', () => {
  it('asks for a friend in friend mode', () => {
    expect(stepProblem(draft(), 1, today)?.title).toBe('Please select a friend');
    expect(stepProblem(draft({ selectedFriendId: 'f' }), 1, today)).toBeNull();
  });

  it('asks for an email or phone in invite mode, and consent for a phone', () => {
    const invite = draft({ isInviteMode: true });
    expect(stepProblem(invite, 1, today)?.title).toBe('Please enter an email or phone number');
    expect(stepProblem({ ...invite, inviteeEmail: 'a@b.co' }, 1, today)).toBeNull();
    const phone = { ...invite, inviteePhone: '+14155550123' };
    expect(problemText(stepProblem(phone, 1, today)!)).toBe(
      'SMS Consent Required: Please confirm you have permission to send SMS to this number',
    );
    expect(stepProblem({ ...phone, smsConsent: true }, 1, today)).toBeNull();
  });

  it('names an invitee the server would refuse: a bad email or phone, or your own email', () => {
    const invite = draft({ isInviteMode: true });
    expect(stepProblem({ ...invite, inviteeEmail: 'nora@' }, 1, today)?.title).toBe(
      'Enter a valid email address',
    );
    const local = { ...invite, inviteePhone: '415 555 0123', smsConsent: true };
    expect(stepProblem(local, 1, today)?.title).toBe(
      'Enter the phone number in international format, e.g. +1 415 555 0123',
    );
    const me = { email: 'me@example.com' };
    expect(stepProblem({ ...invite, inviteeEmail: 'Me@Example.com' }, 1, today, me)?.title).toBe(
      'You cannot invite yourself',
    );
    expect(stepProblem({ ...invite, inviteeEmail: 'nora@example.com' }, 1, today, me)).toBeNull();
    expect(
      submitProblem({ ...complete, isInviteMode: true, inviteeEmail: 'x@' }, today)?.title,
    ).toBe('Enter a valid email address');
  });
});

describe('step 2: details', () => {
  it('needs a title and a description', () => {
    expect(problemText(stepProblem(draft({ title: 'x' }), 2, today)!)).toBe(
      'Missing information: Please fill in all required fields',
    );
    expect(stepProblem(draft({ title: 'x', description: 'y' }), 2, today)).toBeNull();
  });

  it('refuses an end date in the past but accepts today', () => {
    const base = { title: 'x', description: 'y' };
    expect(stepProblem(draft({ ...base, endDate: '2025-10-24' }), 2, today)).not.toBeNull();
    expect(stepProblem(draft({ ...base, endDate: today }), 2, today)).toBeNull();
  });
});

describe('step 3: wager', () => {
  it('needs a positive amount for money', () => {
    expect(stepProblem(draft(), 3, today)?.title).toBe('Please enter a wager amount');
    expect(stepProblem(draft({ wagerAmount: ' ' }), 3, today)?.title).toBe(
      'Please enter a wager amount',
    );
    expect(stepProblem(draft({ wagerAmount: '0.01' }), 3, today)).toBeNull();
  });

  it('says how to write an amount it cannot take', () => {
    for (const wagerAmount of ['12.345', '0', '-5', '1e3']) {
      expect(stepProblem(draft({ wagerAmount }), 3, today)?.title).toBe(
        'Enter an amount of more than zero with at most two decimals, e.g. 12.50',
      );
    }
  });

  it('needs a description for a custom wager', () => {
    expect(stepProblem(draft({ wagerType: 'custom' }), 3, today)?.title).toBe(
      "Please describe what you're wagering",
    );
    expect(
      stepProblem(draft({ wagerType: 'custom', wagerDescription: 'Dinner' }), 3, today),
    ).toBeNull();
  });
});

describe('submitting', () => {
  it('reports the first unmet step in order', () => {
    expect(submitProblem(draft({ title: 'x', description: 'y' }), today)?.title).toBe(
      'Please select a friend',
    );
    expect(submitProblem(complete, today)).toBeNull();
  });

  it('sends only the wager field that applies, and the chosen friend', () => {
    expect(toCreateBetRequest(complete)).toEqual({
      title: 'Lakers win',
      description: 'Tonight, any margin',
      wagerType: 'money',
      wagerAmount: '12.50',
      endDate: null,
      validationMode: 'both',
      opponentId: 'friend-1',
    });
    const custom = toCreateBetRequest({
      ...complete,
      wagerType: 'custom',
      wagerDescription: ' Dinner ',
    });
    expect(custom).toMatchObject({ wagerDescription: 'Dinner' });
    expect(custom).not.toHaveProperty('wagerAmount');
  });

  it('sends "my report stands" only when both must confirm', () => {
    expect(toCreateBetRequest({ ...complete, reportStands: true })).toMatchObject({
      reportStands: true,
    });
    expect(
      toCreateBetRequest({ ...complete, reportStands: true, validationMode: 'one' }),
    ).not.toHaveProperty('reportStands');
  });

  it('sends the newcomer instead of a friend in invite mode', () => {
    const byPhone = toCreateBetRequest({
      ...complete,
      isInviteMode: true,
      inviteePhone: '+14155550123',
      smsConsent: true,
    });
    expect(byPhone).toMatchObject({ inviteePhone: '+14155550123', smsConsent: true });
    expect(byPhone).not.toHaveProperty('opponentId');
  });

  it('fails loudly when friend mode has no friend', () => {
    expect(() => toCreateBetRequest({ ...complete, selectedFriendId: '' })).toThrow(
      'No friend selected',
    );
  });
});
