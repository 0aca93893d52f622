import { Link } from 'react-router-dom';
import { ErrorMessage } from '@/components/feedback/error-message.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { LoadingStatus } from '@/components/feedback/loading-status.tsx';
import { paths } from '@/config/paths.ts';
import { useAuditTrail } from '../api/get-audit-trail.ts';
import { utcMoment } from '../utils/moment.ts';

/** Who looked at which bet, and when: the latest looks first. */
export function AuditTrail({ betId = null }: { betId?: string | null }) {
  const { data: entries, isPending, isError, error, failureReason } = useAuditTrail(betId);
  return (
    <Card data-testid="audit-trail">
      <CardHeader>
        <CardTitle>{betId ? 'Looks at this bet' : 'Audit trail'}</CardTitle>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <LoadingStatus label="Loading the trail" failure={failureReason} className="grid gap-2">
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="h-4 w-1/2" />
          </LoadingStatus>
        ) : isError ? (
          <ErrorMessage what="the audit trail" error={error} />
        ) : entries.length === 0 ? (
          <p className="text-sm text-slate-600">No auditor has looked yet.</p>
        ) : (
          <ul className="grid gap-2">
            {entries.map((entry) => (
              <li key={entry.eventId} data-testid="audit-trail-entry" className="text-sm">
                <span className="font-medium text-slate-900">{entry.auditorName}</span>{' '}
                {entry.view === 'export' ? 'exported' : 'read the history of'}{' '}
                {betId ? (
                  'this bet'
                ) : (
                  <Link className="text-indigo-700 underline" to={paths.auditBet(entry.betId)}>
                    bet {entry.betId.slice(0, 8)}
                  </Link>
                )}
                {entry.asOf ? (
                  <>
                    {' '}
                    as of <time dateTime={entry.asOf}>{utcMoment(entry.asOf)}</time>
                  </>
                ) : null}{' '}
                <span className="text-slate-600">
                  · <time dateTime={entry.viewedAt}>{utcMoment(entry.viewedAt)}</time>
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
