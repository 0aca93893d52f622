import { PageLoading } from '@/components/feedback/page-loading.tsx';
import { useUser } from '@/lib/auth.ts';
import { BetTabs } from '@/features/bets/components/bet-tabs.tsx';
import { ActivityFeed } from '@/features/bets/components/activity-feed.tsx';
import { SettleUpCard } from '@/features/bets/components/settle-up-card.tsx';
import { StatsCard } from '@/features/bets/components/stats-card.tsx';
import { LandingPage } from '@/features/landing/components/landing-page.tsx';

export function HomeRoute() {
  const { user, isLoading } = useUser();
  if (isLoading) return <PageLoading />;
  if (!user) return <LandingPage />;
  return (
    <div className="grid gap-6" data-testid="dashboard">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Dashboard</h1>
        <p className="text-slate-700">
          {user.firstName ? `Welcome back, ${user.firstName}!` : 'Welcome back!'} Here are your
          bets.
        </p>
      </div>
      <StatsCard />
      <BetTabs />
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <SettleUpCard />
        <ActivityFeed />
      </div>
    </div>
  );
}
