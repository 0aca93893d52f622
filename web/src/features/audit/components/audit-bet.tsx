import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import {
  auditHistoryQuerySchema,
  type AuditBetHistory,
  type AuditHistoryEntry,
} from '@wagers/contracts/api/audit';
import { EmptyState } from '@/components/feedback/empty-state.tsx';
import { ErrorMessage } from '@/components/feedback/error-message.tsx';
import { MessageCard } from '@/components/feedback/message-card.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button, ButtonAnchor, ButtonLink } from '@/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { Icon } from '@/components/ui/icons.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { LoadingStatus } from '@/components/feedback/loading-status.tsx';
import { paths } from '@/config/paths.ts';
import { ApiError } from '@/lib/api-client.ts';
import { cn } from '@/lib/cn.ts';
import { useAuditHistory } from '../api/get-audit-history.ts';
import { chosenEntry } from '../utils/chosen-entry.ts';
import { fieldFromInstant, instantFromField } from '../utils/moment-field.ts';
import { utcMoment } from '../utils/moment.ts';
import { AuditTrail } from './audit-trail.tsx';

/** Why a moment given in the page's address is refused, or null when it is one (or there is none). */
function refusal(asked: string | null): string | null {
  if (asked === null) return null;
  const checked = auditHistoryQuerySchema.safeParse({ asOf: asked });
  return checked.success ? null : (checked.error.issues[0]?.message ?? 'Not a moment');
}

/**
 * A bet's full history, or as of a moment (`?asOf=` in the page's address, so the way back is the
 * browser's too), its state as of the chosen event, its export and who looked at it.
 */
export function AuditBet({ betId }: { betId: string }) {
  const [params, setParams] = useSearchParams();
  const asked = params.get('asOf');
  const refused = refusal(asked);
  const asOf = refused === null ? asked : null;
  const { data, isPending, isError, error, failureReason } = useAuditHistory(betId, asOf);
  const queryClient = useQueryClient();
  // Every answer fetched is a look the trail records: show it there.
  useEffect(() => {
    if (!data) return;
    void queryClient.invalidateQueries(
      { queryKey: ['/api/audit/trail'] },
      // A trail already being fetched was asked for after this look: no need to ask again.
      { cancelRefetch: false },
    );
  }, [data, queryClient]);
  if (isError && error instanceof ApiError && error.status === 404) {
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
  const pick = (instant: string | null) => setParams(instant ? { asOf: instant } : {});
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
      <AsOfForm asked={asked} refused={refused} onPick={pick} />
      {isPending ? (
        <LoadingStatus
          label={asOf ? 'Loading the bet as of that moment' : "Loading the bet's history"}
          failure={failureReason}
          className="grid gap-3"
        >
          <Skeleton className="h-8 w-1/2" />
          <Skeleton className="h-40 w-full" />
        </LoadingStatus>
      ) : isError ? (
        <ErrorMessage
          what={asOf ? 'the bet as of that moment' : "the bet's history"}
          error={error}
        />
      ) : (
        <History key={asOf ?? ''} history={data} asked={asOf} />
      )}
      {isPending ? null : <AuditTrail betId={betId} />}
    </div>
  );
}

/** Picks the moment to see the bet as of, in UTC; empty, the whole history. */
function AsOfForm(props: {
  asked: string | null;
  refused: string | null;
  onPick: (instant: string | null) => void;
}) {
  const { asked, refused, onPick } = props;
  const field = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState(fieldFromInstant(asked));
  const [error, setError] = useState(refused);
  // The address changed (a moment picked, the way back taken, the browser's back button).
  const [shown, setShown] = useState(asked);
  if (shown !== asked) {
    setShown(asked);
    setValue(fieldFromInstant(asked));
    setError(refused);
  }
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const instant = instantFromField(value);
    if (!instant) {
      setError('Pick a date and a time (UTC)');
      return;
    }
    const checked = auditHistoryQuerySchema.safeParse({ asOf: instant });
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'Not a moment');
      return;
    }
    setError(null);
    onPick(instant);
  };
  const whole = () => {
    onPick(null);
    field.current?.focus();
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>As of a moment</CardTitle>
        <CardDescription id="audit-as-of-hint">
          The events the log had recorded by then, and the bet's state at that moment. The date and
          time are in UTC, not in your time zone.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2">
        <form
          onSubmit={submit}
          noValidate
          aria-label="The bet as of a moment"
          className="flex flex-wrap items-end gap-3"
        >
          <div className="grid gap-1.5">
            <Label htmlFor="audit-as-of">Date and time (UTC)</Label>
            <Input
              ref={field}
              id="audit-as-of"
              name="asOf"
              type="datetime-local"
              step={1}
              value={value}
              onChange={(event) => setValue(event.target.value)}
              className="w-auto"
              aria-invalid={error !== null}
              aria-describedby={error ? 'audit-as-of-hint audit-as-of-error' : 'audit-as-of-hint'}
            />
          </div>
          <Button type="submit">
            <Icon name="clock" />
            Show the bet then
          </Button>
          {asked !== null ? (
            <Button variant="outline" onClick={whole}>
              Show the whole history
            </Button>
          ) : null}
        </form>
        {error ? (
          <p id="audit-as-of-error" role="alert" className="text-sm font-medium text-red-700">
            {error}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** The events listed and the state beside them: as of the chosen event, or of the moment asked. */
function History({ history, asked }: { history: AuditBetHistory; asked: string | null }) {
  const { entries, asOf } = history;
  const [chosen, setChosen] = useState<number | null>(null);
  if (asOf && !asOf.existed) {
    return (
      <EmptyState
        testId="audit-as-of-empty"
        icon={<Icon name="clock" className="size-6" />}
        title="The bet did not exist yet at that moment"
        description={`The log had recorded none of its events by ${utcMoment(asOf.at)}. Show the whole history to see when it began.`}
      />
    );
  }
  const selected = chosenEntry(entries, chosen);
  const stillToCome = asOf && asked !== null && Date.parse(asked) > Date.parse(asOf.at);
  return (
    <div className="grid gap-3">
      {asOf ? (
        <p
          role="status"
          data-testid="audit-as-of"
          className="rounded-lg border border-indigo-200 bg-indigo-50 p-3 text-sm text-slate-800"
        >
          As of <time dateTime={asOf.at}>{utcMoment(asOf.at)}</time>
          {stillToCome ? ' (the moment asked for is still to come: this is the bet now)' : ''}:{' '}
          {entries.length === 1 ? '1 event' : `${entries.length} events`} recorded by then
          {asOf.laterEvents > 0
            ? `; ${asOf.laterEvents === 1 ? '1 later event is' : `${asOf.laterEvents} later events are`} not shown.`
            : '; none since.'}
        </p>
      ) : null}
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
        {asOf && chosen === null ? (
          <StateCard
            title={
              <>
                State at <time dateTime={asOf.at}>{utcMoment(asOf.at)}</time>
              </>
            }
            note={selected ? `After #${selected.revision} ${selected.type}` : null}
            state={asOf.state}
          />
        ) : selected ? (
          <StateCard
            title={`State as of #${selected.revision} ${selected.type}`}
            state={selected.stateAfter}
          />
        ) : null}
      </div>
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
          {entry.actorName} · occurred{' '}
          <time dateTime={entry.occurredAt}>{utcMoment(entry.occurredAt)}</time>
        </span>
        <span className="text-xs text-slate-600">
          recorded <time dateTime={entry.recordedAt}>{utcMoment(entry.recordedAt)}</time>
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

function StateCard(props: {
  title: ReactNode;
  note?: string | null;
  state: Record<string, unknown>;
}) {
  const { title, note, state } = props;
  return (
    <Card data-testid="audit-state" className="self-start lg:sticky lg:top-20">
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        {note ? <CardDescription>{note}</CardDescription> : null}
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          {Object.entries(state).map(([key, value]) => (
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
