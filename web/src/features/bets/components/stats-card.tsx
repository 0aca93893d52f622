import { ErrorMessage } from '@/components/feedback/error-message.tsx';
import { PreparingNotice } from '@/components/feedback/loading-status.tsx';
import { ButtonLink } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { Icon } from '@/components/ui/icons.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { paths } from '@/config/paths.ts';
import { useStats } from '../api/get-stats.ts';

export function StatsCard() {
  const { data: stats, isPending, error, failureReason } = useStats();
  const figures = [
    { label: 'Total Bets', value: stats?.totalBets, testId: 'stat-total' },
    { label: 'Active Bets', value: stats?.activeBets, testId: 'stat-active' },
    { label: 'Bets Won', value: stats?.wonBets, testId: 'stat-won' },
  ];
  return (
    <Card className="p-4 sm:p-6" data-testid="stats-card">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        {/* Figures that could not load are not zeros. */}
        {!stats && error ? (
          <ErrorMessage what="your figures" error={error} />
        ) : (
          <dl className="grid grid-cols-3 gap-4 sm:flex sm:gap-10">
            {figures.map((figure) => (
              <div key={figure.label} className="grid gap-1">
                <dt className="text-sm text-slate-600">{figure.label}</dt>
                <dd className="text-2xl font-bold text-slate-900" data-testid={figure.testId}>
                  {isPending ? <Skeleton className="h-8 w-10" /> : (figure.value ?? 0)}
                </dd>
              </div>
            ))}
          </dl>
        )}
        <ButtonLink to={paths.friends} variant="outline" data-testid="stats-friends">
          <Icon name="users" />
          Friends ({stats?.friendsCount ?? '…'})
        </ButtonLink>
      </div>
      {isPending ? <PreparingNotice failure={failureReason} className="mt-3" /> : null}
    </Card>
  );
}
