import { useState } from 'react';
import type { AuditHistoryEntry } from '@wagers/contracts/api/audit';
import { ErrorMessage } from '@/components/feedback/error-message.tsx';
import { MessageCard } from '@/components/feedback/message-card.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { ButtonAnchor, ButtonLink } from '@/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { paths } from '@/config/paths.ts';
import { ApiError } from '@/lib/api-client.ts';
import { cn } from '@/lib/cn.ts';
import { formatDateTime } from '@/lib/format.ts';
import { useAuditHistory } from '../api/get-audit-history.ts';
import { AuditTrail } from './audit-trail.tsx';

/** A bet's full history, its state as of the chosen event, its export and who looked at it. */
export function AuditBet({ betId }: { betId: string }) {
  const { data, isPending, isError, error } = useAuditHistory(betId);
  const [chosen, setChosen] = useState<number | null>(null);
  if (isPending) {
    return (
      <div role="status" aria-label="Loading the bet's history" className="grid gap-3">
        <Skeleton className="h-8 w-1/2" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  if (isError) {
    if (error instanceof ApiError && error.status === 404) {
      return (
        <MessageCard
          testId="audit-bet-not-found"
          title="Bet not found"
          action={<ButtonLink to={paths.audit}>Back to the audit area</ButtonLink>}
        >
          No bet has this id.
        </MessageCard>
      );
    }
    return <ErrorMessage what="the bet's history" error={error} />;
  }
  const entries = data.entries;
  const selected = entries[chosen ?? entries.length - 1];
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Bet history</h1>
          <p className="font-mono text-xs break-all text-slate-600">{betId}</p>
        </div>
        <ButtonAnchor
          variant="outline"
          href={`/api/audit/bets/${encodeURIComponent(betId)}/export`}
          download
        >
          Export with hashes
        </ButtonAnchor>
      </div>
      <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
        <Card>
          <CardHeader>
            <CardTitle>Events</CardTitle>
          </CardHeader>
          <CardContent>
            <ol className="grid gap-2">
              {entries.map((entry) => (
                <EventRow
                  key={entry.eventId}
                  entry={entry}
                  selected={entry === selected}
                  onSelect={() => setChosen(entry.revision)}
                />
              ))}
            </ol>
          </CardContent>
        </Card>
        {selected ? <StateAsOf entry={selected} /> : null}
      </div>
      <AuditTrail betId={betId} />
    </div>
  );
}

function EventRow(props: { entry: AuditHistoryEntry; selected: boolean; onSelect: () => void }) {
  const { entry, selected, onSelect } = props;
  return (
    <li data-testid="audit-event" data-type={entry.type}>
      <button
        type="button"
        aria-pressed={selected}
        onClick={onSelect}
        className={cn(
          'grid w-full gap-1 rounded-lg border p-3 text-left text-sm focus-visible:outline-2 focus-visible:outline-indigo-600',
          selected ? 'border-indigo-600 bg-indigo-50' : 'border-slate-200 hover:bg-slate-50',
        )}
      >
        <span className="flex flex-wrap items-center gap-2">
          <Badge variant="outline">#{entry.revision}</Badge>
          <span className="font-medium text-slate-900">{entry.type}</span>
        </span>
        <span className="text-slate-700">
          {entry.actorName} ·{' '}
          <time dateTime={entry.occurredAt}>{formatDateTime(entry.occurredAt)}</time>
        </span>
        <span className="font-mono text-xs break-all text-slate-600">
          correlation {entry.correlationId}
        </span>
        <pre className="overflow-x-auto rounded bg-slate-100 p-2 text-xs text-slate-800">
          {JSON.stringify(entry.data, null, 2)}
        </pre>
        {entry.readError ? (
          <span className="text-xs text-red-700" data-testid="audit-read-error">
            The bet's rules cannot read this event as stored ({entry.readError}); the state is left
            as it was before it.
          </span>
        ) : null}
        <span className="font-mono text-xs break-all text-slate-600">
          hash {entry.hash ?? '(written before hash chains)'}
        </span>
      </button>
    </li>
  );
}

function StateAsOf({ entry }: { entry: AuditHistoryEntry }) {
  return (
    <Card data-testid="audit-state" className="self-start lg:sticky lg:top-20">
      <CardHeader>
        <CardTitle>
          State as of #{entry.revision} {entry.type}
        </CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          {Object.entries(entry.stateAfter).map(([key, value]) => (
            <div key={key} className="contents">
              <dt className="text-slate-600">{key}</dt>
              <dd
                className="font-mono text-xs break-all text-slate-900"
                data-testid={`state-${key}`}
              >
                {JSON.stringify(value)}
              </dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
