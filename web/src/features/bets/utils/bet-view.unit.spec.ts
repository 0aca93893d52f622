import { describe, expect, it } from 'vitest';
import type { Bet } from '@wagers/contracts/api/bets';
import type { User } from '@wagers/contracts/api/user';
import { canResolve, mustPay, resolutionLabel, resolutionPhase, roleOf } from './bet-view.ts';
import { betsInTab, statusBadge } from './bet-status.ts';
import { venmoPayUrl } from './venmo.ts';
import { winRate } from './win-rate.ts';

const person = (id: string, firstName: string): User => ({
  id,
  firstName,
  lastName: 'Doe',
  email: `${firstName.toLowerCase()}@example.com`,
  profileImageUrl: null,
  createdAt: '2025-01-01T00:00:00Z',
});
const ann = person('ann', 'Ann');
const bob = person('bob', 'Bob');
const bet = (patch: Partial<Bet> = {}): Bet => ({
  id: 'b1',
  title: 'Rain on Sunday',
  description: 'Any rain counts',
  wagerType: 'money',
  wagerAmount: '20.00',
  wagerAmountCents: 2000,
  wagerDescription: null,
  endDate: null,
  validationMode: 'both',
  status: 'active',
  creatorId: 'ann',
  opponentId: 'bob',
  creator: ann,
  opponent: bob,
  creatorResolution: null,
  opponentResolution: null,
  winnerId: null,
  winner: null,
  invitee: null,
  createdAt: '2025-10-20T10:00:00Z',
  updatedAt: '2025-10-20T10:00:00Z',
  ...patch,
});

describe('who may do what', () => {
  it('lets only the two participants of an accepted bet resolve it', () => {
    expect(roleOf(bet(), 'ann')).toBe('creator');
    expect(roleOf(bet(), 'bob')).toBe('opponent');
    expect(canResolve(bet(), roleOf(bet(), 'eve'))).toBe(false);
    expect(canResolve(bet({ status: 'pending' }), 'creator')).toBe(false);
    expect(canResolve(bet({ status: 'awaiting_resolution' }), 'opponent')).toBe(true);
    expect(canResolve(bet({ opponentId: null, opponent: null }), 'creator')).toBe(false);
  });

  it('asks only the loser of a completed money bet to pay', () => {
    const won = bet({ status: 'completed', winnerId: 'ann', winner: ann });
    expect(mustPay(won, 'bob')).toBe(true);
    expect(mustPay(won, 'ann')).toBe(false);
    expect(mustPay(won, 'eve')).toBe(false);
    expect(mustPay({ ...won, wagerType: 'custom' }, 'bob')).toBe(false);
    expect(mustPay(bet({ status: 'completed' }), 'bob')).toBe(false);
  });
});

describe('resolution', () => {
  it('waits, agrees or disagrees from the viewer side', () => {
    expect(resolutionPhase(bet(), 'creator').phase).toBe('open');
    expect(resolutionPhase(bet({ creatorResolution: 'draw' }), 'creator').phase).toBe('waiting');
    expect(
      resolutionPhase(bet({ creatorResolution: 'draw', opponentResolution: 'draw' }), 'opponent')
        .phase,
    ).toBe('agreed');
    const split = resolutionPhase(
      bet({ creatorResolution: 'creator_won', opponentResolution: 'opponent_won' }),
      'opponent',
    );
    expect(split).toEqual({ phase: 'disagreed', mine: 'opponent_won', theirs: 'creator_won' });
  });

  it('names the winner', () => {
    expect(resolutionLabel(bet(), 'creator_won')).toBe('Ann Doe won');
    expect(resolutionLabel(bet(), 'opponent_won')).toBe('Bob Doe won');
    expect(resolutionLabel(bet(), 'draw')).toBe('Draw');
  });
});

describe('status and tabs', () => {
  it('labels known statuses and flags unknown ones', () => {
    expect(statusBadge('awaiting_resolution').label).toBe('Awaiting Resolution');
    expect(statusBadge('under_review')).toEqual({ label: 'under review', variant: 'destructive' });
  });

  it('puts awaiting_resolution under Active', () => {
    const bets = [
      bet({ id: '1', status: 'pending' }),
      bet({ id: '2', status: 'awaiting_resolution' }),
      bet({ id: '3' }),
    ];
    expect(betsInTab(bets, 'active').map((b) => b.id)).toEqual(['2', '3']);
    expect(betsInTab(bets, 'pending').map((b) => b.id)).toEqual(['1']);
  });
});

describe('figures', () => {
  it('rounds the win rate to a whole percent, 0 without bets', () => {
    expect(winRate({ totalBets: 3, wonBets: 2 })).toBe(67);
    expect(winRate({ totalBets: 0, wonBets: 0 })).toBe(0);
  });

  it('builds the Venmo pay link with the amount and a note', () => {
    expect(venmoPayUrl({ wagerAmountCents: 1250, wagerAmount: '12.50', title: 'Rain & sun' })).toBe(
      'https://venmo.com/?txn=pay&amount=12.50&note=Wagers%3A%20Rain%20%26%20sun',
    );
  });
});
