import { useState } from 'react';
import { ButtonLink } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/feedback/empty-state.tsx';
import { ErrorMessage } from '@/components/feedback/error-message.tsx';
import { Icon } from '@/components/ui/icons.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { paths } from '@/config/paths.ts';
import { useBets } from '../api/get-bets.ts';
import { betsInTab, type BetTab } from '../utils/bet-status.ts';
import { BetList, BetListSkeleton } from './bet-list.tsx';

const tabs: { value: BetTab; label: string; empty: string }[] = [
  { value: 'all', label: 'All Bets', empty: 'No bets yet' },
  { value: 'pending', label: 'Pending', empty: 'No pending bets' },
  { value: 'active', label: 'Active', empty: 'No active bets' },
  { value: 'completed', label: 'Completed', empty: 'No completed bets' },
];

export function BetTabs() {
  const [tab, setTab] = useState<BetTab>('all');
  const { data: bets, isPending, isError, error, failureReason } = useBets();
  const pendingCount = bets ? betsInTab(bets, 'pending').length : 0;

  return (
    <Tabs value={tab} onValueChange={(value) => setTab(value as BetTab)}>
      <h2 className="sr-only">Your bets</h2>
      <TabsList aria-label="Filter bets">
        {tabs.map(({ value, label }) => (
          <TabsTrigger key={value} value={value} data-testid={`tab-${value}`}>
            {value === 'pending' && pendingCount > 0 ? `${label} (${pendingCount})` : label}
          </TabsTrigger>
        ))}
      </TabsList>
      {tabs.map(({ value, empty }) => (
        <TabsContent key={value} value={value}>
          {isPending ? (
            <BetListSkeleton failure={failureReason} />
          ) : isError ? (
            <ErrorMessage what="your bets" error={error} />
          ) : bets.length === 0 ? (
            <NoBets />
          ) : betsInTab(bets, value).length === 0 ? (
            <EmptyState title={empty} testId="bets-empty-tab" />
          ) : (
            <BetList bets={betsInTab(bets, value)} />
          )}
        </TabsContent>
      ))}
    </Tabs>
  );
}

function NoBets() {
  return (
    <EmptyState
      testId="bets-empty"
      icon={<Icon name="trophy" className="size-6" />}
      title="No bets yet"
      description="Create your first bet to get started"
      action={
        <ButtonLink to={paths.createBet}>
          <Icon name="plus" />
          Create Bet
        </ButtonLink>
      }
    />
  );
}
