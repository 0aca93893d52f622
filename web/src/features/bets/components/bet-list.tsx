import type { Bet } from '@wagers/contracts/api/bets';
import { BetCard, BetCardSkeleton } from './bet-card.tsx';

export function BetList({ bets }: { bets: readonly Bet[] }) {
  return (
    <ul className="grid gap-3 md:grid-cols-2">
      {bets.map((bet) => (
        <li key={bet.id}>
          <BetCard bet={bet} />
        </li>
      ))}
    </ul>
  );
}

export function BetListSkeleton({ count = 3 }: { count?: number }) {
  return (
    <div
      role="status"
      aria-label="Loading bets"
      className="grid gap-3 md:grid-cols-2"
      data-testid="bets-loading"
    >
      {Array.from({ length: count }, (_, index) => (
        <BetCardSkeleton key={index} />
      ))}
    </div>
  );
}
