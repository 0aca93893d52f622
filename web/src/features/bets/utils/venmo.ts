import type { Bet } from '@wagers/contracts/api/bets';
import { formatCents, parseDollarsToCents } from '@wagers/contracts/api/money';
// Relative import: the unit tests run under the root vitest config, which has no '@' alias.
import { site } from '../../../config/site.ts';

export function wagerCents(bet: Pick<Bet, 'wagerAmountCents' | 'wagerAmount'>): number {
  return (
    bet.wagerAmountCents ?? (bet.wagerAmount ? (parseDollarsToCents(bet.wagerAmount) ?? 0) : 0)
  );
}

/** Venmo's public pay link; the product itself never touches the money. */
export function venmoPayUrl(bet: Pick<Bet, 'wagerAmountCents' | 'wagerAmount' | 'title'>): string {
  const amount = formatCents(wagerCents(bet));
  const note = `${site.name}: ${bet.title}`;
  return `https://venmo.com/?txn=pay&amount=${amount}&note=${encodeURIComponent(note)}`;
}
