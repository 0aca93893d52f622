import { describe, expect, it } from 'vitest';
import type { BetStreamEvent } from '@wagers/contracts/events/bet';
import { summarize } from './history-summary.ts';

const names = { actor: 'Ben Lee', creator: 'Ann Lee', opponent: 'Ben Lee' };
const proposal: Extract<BetStreamEvent, { type: 'BetProposed' }>['data'] = {
  betId: 'b1',
  creatorId: 'ann',
  opponentId: 'ben',
  inviteeEmail: null,
  inviteePhone: null,
  smsConsent: false,
  title: 'Rain on Sunday',
  description: 'In Paris',
  wagerType: 'money',
  wagerAmountCents: 500,
  wagerDescription: null,
  endDate: null,
  validationMode: 'both',
  reportStands: true,
};

/** One event of every type the bet stream holds, each with the words its history line shows. */
const everyEvent: {
  [Type in BetStreamEvent['type']]: [Extract<BetStreamEvent, { type: Type }>['data'], string];
} = {
  BetProposed: [
    proposal,
    `Ben Lee proposed "Rain on Sunday" to Ben Lee for $5.00 (both must confirm the outcome; Ann Lee's report stands after 7 days without an answer)`,
  ],
  BetInviteAttached: [{ inviteCode: 'c' }, 'The invitation was sent to the newcomer'],
  BetInviteResent: [{ inviteCode: 'c', sequence: 1 }, 'Ben Lee sent the invitation again'],
  BetInviteAccepted: [
    { opponentId: 'ben', inviteCode: 'c' },
    'Ben Lee accepted the invitation and joined the bet',
  ],
  BetAccepted: [{ opponentId: 'ben' }, 'Ben Lee accepted the bet'],
  BetDeclined: [{ opponentId: 'ben' }, 'Ben Lee declined the bet'],
  BetDeleted: [{ deletedBy: 'ann' }, 'Ben Lee deleted the bet'],
  ResolutionSubmitted: [
    { party: 'opponent', userId: 'ben', resolution: 'opponent_won' },
    'Ben Lee reported the outcome: Ben Lee won',
  ],
  ResolutionDisputed: [
    { creatorResolution: 'creator_won', opponentResolution: 'opponent_won' },
    'The answers differ (Ann Lee: Ann Lee won; Ben Lee: Ben Lee won); waiting for both to agree',
  ],
  BetCompleted: [{ resolution: 'draw', winnerId: null }, 'Bet completed as a draw'],
  BetSideLeft: [
    { party: 'opponent', userId: 'ben' },
    "Ben Lee deleted their account; Ann Lee's report now decides the outcome",
  ],
  BetMarkedPaid: [{ userId: 'ben' }, 'Ben Lee marked the bet paid'],
  BetPaymentConfirmed: [{ userId: 'ben' }, 'Ben Lee confirmed the payment arrived'],
  BetPaymentNotReceived: [{ userId: 'ben' }, 'Ben Lee said the payment did not arrive'],
  DrawOffered: [{ userId: 'ben' }, 'Ben Lee offered to call it a draw'],
  DrawAccepted: [{ userId: 'ben' }, 'Ben Lee accepted the draw'],
  ReportStood: [
    { resolution: 'creator_won', reportedAt: '2026-01-01T00:00:00.000Z', days: 7 },
    "Ann Lee's report stands (Ann Lee won): no answer within 7 days",
  ],
};

describe('bet history lines', () => {
  it.each(Object.entries(everyEvent))('%s is told in words', (type, [data, words]) => {
    expect(summarize({ type, data } as BetStreamEvent, names)).toBe(words);
  });

  it('names how a bet is decided', () => {
    const line = (data: Partial<typeof proposal>) =>
      summarize({ type: 'BetProposed', data: { ...proposal, ...data } }, names);
    expect(line({ reportStands: false })).toMatch(/\(both must confirm the outcome\)$/);
    expect(line({ validationMode: 'one' })).toMatch(/\(the first answer decides\)$/);
  });
});
