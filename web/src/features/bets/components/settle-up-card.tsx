import { Link } from 'react-router-dom';
import type { SettleUpEntry } from '@wagers/contracts/api/settle-up';
import { displayName } from '@wagers/contracts/api/display';
import { formatUsd } from '@wagers/contracts/api/money';
import { EmptyState } from '@/components/feedback/empty-state.tsx';
import { ButtonAnchor } from '@/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Icon } from '@/components/ui/icons.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { LoadingStatus } from '@/components/feedback/loading-status.tsx';
import { paths } from '@/config/paths.ts';
import { useSettleUp } from '../api/get-settle-up.ts';
import { venmoPayUrl } from '../utils/venmo.ts';

function netLine(entry: SettleUpEntry): string {
  const name = displayName(entry.friend);
  const amount = formatUsd(Math.abs(entry.netCents));
  if (entry.netCents > 0) return `${name} owes you ${amount}`;
  if (entry.netCents < 0) return `You owe ${name} ${amount}`;
  return `You and ${name} are even`;
}

const paymentLabel = { unpaid: 'unpaid', marked_paid: 'marked paid', confirmed: 'settled' };

/** The dashboard's Settle up card: per friend, the net over every money bet not yet confirmed paid. */
export function SettleUpCard() {
  const { data: entries, isPending, failureReason } = useSettleUp();
  return (
    <Card data-testid="settle-up-card">
      <CardHeader>
        <CardTitle>Settle up</CardTitle>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <LoadingStatus label="Loading settle up" failure={failureReason} className="grid gap-2">
            {[0, 1].map((index) => (
              <Skeleton key={index} className="h-14 w-full" />
            ))}
          </LoadingStatus>
        ) : !entries || entries.length === 0 ? (
          <EmptyState title="All settled up" description="Nobody owes anybody anything." />
        ) : (
          <ul className="divide-y divide-slate-200">
            {entries.map((entry) => (
              <li key={entry.friend.id} className="grid gap-2 py-3" data-testid="settle-up-entry">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-medium text-slate-900" data-testid="settle-up-net">
                    {netLine(entry)}
                  </span>
                  {entry.netCents < 0 ? (
                    <ButtonAnchor
                      size="sm"
                      href={venmoPayUrl({
                        wagerAmountCents: -entry.netCents,
                        wagerAmount: entry.netAmount,
                        title: entry.bets.map((bet) => bet.title).join(', '),
                      })}
                      target="_blank"
                      rel="noopener noreferrer"
                      data-testid="settle-up-venmo"
                    >
                      Pay with Venmo
                      <Icon name="externalLink" />
                      <span className="sr-only">(opens in a new tab)</span>
                    </ButtonAnchor>
                  ) : null}
                </div>
                <ul className="grid gap-1 text-sm text-slate-600">
                  {entry.bets.map((bet) => (
                    <li key={bet.betId}>
                      <Link
                        to={paths.bet(bet.betId)}
                        className="rounded hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
                      >
                        {bet.title}
                      </Link>{' '}
                      · {bet.winnerId === entry.friend.id ? '−' : '+'}
                      {formatUsd(bet.amountCents)} · {paymentLabel[bet.status]}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
