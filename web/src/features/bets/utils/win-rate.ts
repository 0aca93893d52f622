import type { Stats } from '@wagers/contracts/api/bets';

/** Bets won over total bets, as a whole percent; 0 with no bets. */
export function winRate(stats: Pick<Stats, 'totalBets' | 'wonBets'>): number {
  return stats.totalBets > 0 ? Math.round((stats.wonBets / stats.totalBets) * 100) : 0;
}
