import { ErrorMessage } from '@/components/feedback/error-message.tsx';
import { PreparingNotice } from '@/components/feedback/loading-status.tsx';
import { Card } from '@/components/ui/card.tsx';
import { Icon, type IconName } from '@/components/ui/icons.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useStats } from '../api/get-stats.ts';
import { winRate } from '../utils/win-rate.ts';

export function ProfileStats() {
  const { data: stats, isPending, error, failureReason } = useStats();
  // Figures that could not load are not zeros.
  if (!stats && error) return <ErrorMessage what="your statistics" error={error} />;
  const cards: { label: string; value: string; icon: IconName; testId: string }[] = [
    {
      label: 'Total Bets',
      value: String(stats?.totalBets ?? 0),
      icon: 'activity',
      testId: 'profile-total',
    },
    {
      label: 'Win Rate',
      value: `${stats ? winRate(stats) : 0}%`,
      icon: 'trophy',
      testId: 'profile-win-rate',
    },
    {
      label: 'Bets Won',
      value: String(stats?.wonBets ?? 0),
      icon: 'checkCircle',
      testId: 'profile-won',
    },
    {
      label: 'Friends',
      value: String(stats?.friendsCount ?? 0),
      icon: 'users',
      testId: 'profile-friends',
    },
  ];
  return (
    <>
      <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label="Your statistics">
        {cards.map((card) => (
          <li key={card.label}>
            <Card className="flex items-center gap-3 p-4">
              <span
                aria-hidden="true"
                className="flex size-10 items-center justify-center rounded-full bg-indigo-50 text-indigo-700"
              >
                <Icon name={card.icon} className="size-5" />
              </span>
              <div className="min-w-0">
                <p className="text-sm text-slate-600">{card.label}</p>
                <p className="text-xl font-bold text-slate-900" data-testid={card.testId}>
                  {isPending ? <Skeleton className="h-7 w-10" /> : card.value}
                </p>
              </div>
            </Card>
          </li>
        ))}
      </ul>
      {isPending ? <PreparingNotice failure={failureReason} /> : null}
    </>
  );
}
