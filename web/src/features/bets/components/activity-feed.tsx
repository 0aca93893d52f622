import { Link } from 'react-router-dom';
import { EmptyState } from '@/components/feedback/empty-state.tsx';
import { ErrorMessage } from '@/components/feedback/error-message.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Icon } from '@/components/ui/icons.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { LoadingStatus } from '@/components/feedback/loading-status.tsx';
import { paths } from '@/config/paths.ts';
import { formatDateTime } from '@/lib/format.ts';
import { useActivity } from '../api/get-activity.ts';

/** The dashboard's activity: events on your bets and friendships, each linking to where it happened. */
export function ActivityFeed() {
  const { data: entries, isPending, isError, error, failureReason } = useActivity();
  return (
    <Card data-testid="activity-feed">
      <CardHeader>
        <CardTitle>Activity</CardTitle>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <LoadingStatus label="Loading activity" failure={failureReason} className="grid gap-2">
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} className="h-12 w-full" />
            ))}
          </LoadingStatus>
        ) : isError ? (
          <ErrorMessage what="your activity" error={error} />
        ) : entries.length === 0 ? (
          <EmptyState
            icon={<Icon name="activity" className="size-6" />}
            title="No activity yet"
            description="What happens on your bets and friendships shows up here."
          />
        ) : (
          <ol className="divide-y divide-slate-200">
            {entries.map((entry) => (
              <li key={entry.id}>
                <Link
                  to={entry.betId ? paths.bet(entry.betId) : paths.friends}
                  data-testid="activity-entry"
                  className="grid gap-0.5 rounded-md px-2 py-2 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
                >
                  <span className="text-sm text-slate-900">{entry.summary}</span>
                  <span className="text-xs text-slate-600">
                    {entry.betTitle ? `${entry.betTitle} · ` : 'Friends · '}
                    <time dateTime={entry.occurredAt}>{formatDateTime(entry.occurredAt)}</time>
                  </span>
                </Link>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
