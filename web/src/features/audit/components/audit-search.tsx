import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { AUDIT_SEARCH_LIMIT, type AuditSearchQuery } from '@wagers/contracts/api/audit';
import { EmptyState } from '@/components/feedback/empty-state.tsx';
import { ErrorMessage } from '@/components/feedback/error-message.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Icon } from '@/components/ui/icons.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { LoadingStatus } from '@/components/feedback/loading-status.tsx';
import { paths } from '@/config/paths.ts';
import { formatDate } from '@/lib/format.ts';
import { useSearchAuditBets } from '../api/search-audit-bets.ts';

/**
 * The day a bet was proposed as the search's days count it: in UTC, not in the auditor's time
 * zone, so the day shown is the day that finds it.
 */
function proposedDay(iso: string): string {
  return `${formatDate(iso, 'UTC')} (UTC)`;
}

/** Finds bets by id, by a participant's email or name, and by the day they were proposed. */
export function AuditSearch() {
  const [query, setQuery] = useState<AuditSearchQuery>({});
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' && value.trim() ? value.trim() : undefined;
    };
    setQuery({ q: text('q'), from: text('from'), to: text('to') });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Find bets</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form
          onSubmit={submit}
          className="grid gap-3 sm:grid-cols-[1fr_auto_auto_auto] sm:items-end"
        >
          <div className="grid gap-1.5">
            <Label htmlFor="audit-q">Bet id, participant email or name</Label>
            <Input id="audit-q" name="q" type="search" placeholder="e.g. alice@example.com" />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="audit-from">Proposed from (UTC day)</Label>
            <Input id="audit-from" name="from" type="date" />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="audit-to">to</Label>
            <Input id="audit-to" name="to" type="date" />
          </div>
          <Button type="submit">
            <Icon name="search" />
            Search
          </Button>
        </form>
        <SearchResults query={query} />
      </CardContent>
    </Card>
  );
}

function SearchResults({ query }: { query: AuditSearchQuery }) {
  const { data: bets, isPending, isError, error, failureReason } = useSearchAuditBets(query);
  if (isPending) {
    return (
      <LoadingStatus label="Loading bets" failure={failureReason} className="grid gap-2">
        <Skeleton className="h-14 w-full" />
        <Skeleton className="h-14 w-full" />
      </LoadingStatus>
    );
  }
  if (isError) return <ErrorMessage what="bets" error={error} />;
  if (bets.length === 0) {
    return (
      <EmptyState
        testId="audit-search-empty"
        icon={<Icon name="search" className="size-6" />}
        title="No bets found"
        description="Try another id, email, name or range of days"
      />
    );
  }
  return (
    <div className="grid gap-2">
      <ul className="grid gap-2" aria-label="Bets found">
        {bets.map((bet) => (
          <li key={bet.id} data-testid="audit-search-result">
            <Link
              to={paths.auditBet(bet.id)}
              className="grid gap-1 rounded-lg border border-slate-200 p-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              <span className="flex flex-wrap items-center gap-2">
                <span className="font-medium text-slate-900">{bet.title}</span>
                <Badge variant="secondary">{bet.status}</Badge>
              </span>
              <span className="text-sm text-slate-600">
                {bet.creator.name} vs {bet.opponent?.name ?? 'an invited newcomer'} · proposed{' '}
                {proposedDay(bet.createdAt)}
              </span>
              <span className="font-mono text-xs break-all text-slate-500">{bet.id}</span>
            </Link>
          </li>
        ))}
      </ul>
      {bets.length >= AUDIT_SEARCH_LIMIT ? (
        // The search answers the newest bets only: older ones it found are not listed.
        <p className="text-sm text-slate-600" data-testid="audit-search-limit">
          At most the {AUDIT_SEARCH_LIMIT} newest bets are shown. Narrow the search, for instance by
          days, to see any older ones.
        </p>
      ) : null}
    </div>
  );
}
