import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { LoadingStatus } from '@/components/feedback/loading-status.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { useBetHistory } from '../../api/get-bet-history.ts';

/** Every recorded change of the bet, oldest first: who did what, and when. */
export function BetHistory({ betId }: { betId: string }) {
  const { data: entries, isPending, isError, failureReason } = useBetHistory(betId);
  return (
    <Card data-testid="bet-history">
      <CardHeader>
        <CardTitle>History</CardTitle>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <LoadingStatus label="Loading history" failure={failureReason} className="grid gap-3">
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="h-4 w-1/2" />
          </LoadingStatus>
        ) : isError ? (
          <p className="text-sm text-slate-600">The history is not available right now.</p>
        ) : entries.length === 0 ? (
          <p className="text-sm text-slate-600">Nothing has happened yet.</p>
        ) : (
          <ol className="relative grid gap-4 border-l-2 border-slate-200 pl-5">
            {entries.map((entry) => (
              <li
                key={entry.eventId}
                className="relative"
                data-testid="history-entry"
                data-type={entry.type}
              >
                <span
                  aria-hidden="true"
                  className="absolute top-1.5 -left-[27px] size-3 rounded-full border-2 border-white bg-indigo-700"
                />
                <p className="text-sm font-medium text-slate-900">{entry.summary}</p>
                <p className="text-xs text-slate-600">
                  {entry.actorName} ·{' '}
                  <time dateTime={entry.occurredAt}>{formatDateTime(entry.occurredAt)}</time>
                </p>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
