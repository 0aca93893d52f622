import type { ReactNode } from 'react';
import type { Bet } from '@wagers/contracts/api/bets';
import { Card, CardContent, CardHeader } from '@/components/ui/card.tsx';
import { formatDate, formatWager } from '@/lib/format.ts';
import { BetStatusBadge } from '../bet-status-badge.tsx';

export function BetSummaryCard({ bet }: { bet: Bet }) {
  return (
    <Card data-testid="bet-summary">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <h1 className="min-w-0 text-2xl font-bold break-words text-slate-900">{bet.title}</h1>
        <BetStatusBadge status={bet.status} />
      </CardHeader>
      <CardContent className="grid gap-4">
        <p className="break-words whitespace-pre-line text-slate-700">{bet.description}</p>
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <Fact label="Wager">
            <span className="font-semibold text-indigo-800" data-testid="bet-wager">
              {formatWager(bet)}
            </span>
          </Fact>
          <Fact label="Created">{formatDate(bet.createdAt)}</Fact>
          {bet.endDate ? <Fact label="Ends">{formatDate(bet.endDate)}</Fact> : null}
          <Fact label="Winner confirmation">
            {bet.validationMode === 'both'
              ? 'Both must confirm the same outcome'
              : 'The first to submit decides'}
          </Fact>
        </dl>
      </CardContent>
    </Card>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-slate-600">{label}</dt>
      <dd className="break-words text-slate-900">{children}</dd>
    </div>
  );
}
