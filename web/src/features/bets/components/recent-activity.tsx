import { Link } from 'react-router-dom';
import { EmptyState } from '@/components/feedback/empty-state.tsx';
import { ErrorMessage } from '@/components/feedback/error-message.tsx';
import { ButtonLink } from '@/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Icon } from '@/components/ui/icons.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { LoadingStatus } from '@/components/feedback/loading-status.tsx';
import { paths } from '@/config/paths.ts';
import { formatDate, formatWager } from '@/lib/format.ts';
import { useBets } from '../api/get-bets.ts';
import { BetStatusBadge } from './bet-status-badge.tsx';

export const RECENT_ACTIVITY_LIMIT = 5;

export function RecentActivity() {
  const { data: bets, isPending, error, failureReason } = useBets();
  const recent = bets?.slice(0, RECENT_ACTIVITY_LIMIT) ?? [];
  return (
    <Card data-testid="recent-activity">
      <CardHeader>
        <CardTitle>Recent Activity</CardTitle>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <LoadingStatus
            label="Loading recent activity"
            failure={failureReason}
            className="grid gap-2"
          >
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} className="h-14 w-full" />
            ))}
          </LoadingStatus>
        ) : !bets && error ? (
          <ErrorMessage what="your recent bets" error={error} />
        ) : recent.length === 0 ? (
          <EmptyState
            title="No bets yet"
            action={
              <ButtonLink to={paths.createBet}>
                <Icon name="plus" />
                Create Your First Bet
              </ButtonLink>
            }
          />
        ) : (
          <ul className="divide-y divide-slate-200">
            {recent.map((bet) => (
              <li key={bet.id}>
                <Link
                  to={paths.bet(bet.id)}
                  data-testid="recent-bet"
                  className="flex items-center justify-between gap-3 rounded-md px-2 py-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
                >
                  <span className="min-w-0">
                    <span className="block truncate font-medium text-slate-900">{bet.title}</span>
                    <span className="block truncate text-sm text-slate-600">
                      {formatWager(bet)} · {formatDate(bet.createdAt)}
                    </span>
                  </span>
                  <BetStatusBadge status={bet.status} />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
