import type { Bet } from '@wagers/contracts/api/bets';
import { LoadingStatus } from '@/components/feedback/loading-status.tsx';
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

/** `failure` is the bets query's `failureReason`, for the loading state to say why it waits. */
export function BetListSkeleton({
  count = 3,
  failure = null,
}: {
  count?: number;
  failure?: Error | null;
}) {
  return (
    <LoadingStatus
      label="Loading bets"
      failure={failure}
      className="grid gap-3 md:grid-cols-2"
      testId="bets-loading"
    >
      {Array.from({ length: count }, (_, index) => (
        <BetCardSkeleton key={index} />
      ))}
    </LoadingStatus>
  );
}
