import type { Bet, BetStatus } from '@wagers/contracts/api/bets';
import type { BadgeVariant } from '@/components/ui/badge.tsx';

const known: Record<BetStatus, { label: string; variant: BadgeVariant }> = {
  pending: { label: 'Pending', variant: 'warning' },
  active: { label: 'Active', variant: 'default' },
  awaiting_resolution: { label: 'Awaiting Resolution', variant: 'secondary' },
  completed: { label: 'Completed', variant: 'success' },
  declined: { label: 'Declined', variant: 'outline' },
};

/** Known statuses get their own badge; anything else is flagged, underscores shown as spaces. */
export function statusBadge(status: string): { label: string; variant: BadgeVariant } {
  return known[status as BetStatus] ?? { label: status.replace(/_/g, ' '), variant: 'destructive' };
}

export type BetTab = 'all' | 'pending' | 'active' | 'completed';

export function betsInTab(bets: readonly Bet[], tab: BetTab): Bet[] {
  switch (tab) {
    case 'all':
      return [...bets];
    case 'pending':
      return bets.filter((bet) => bet.status === 'pending');
    case 'active':
      return bets.filter((bet) => bet.status === 'active' || bet.status === 'awaiting_resolution');
    case 'completed':
      return bets.filter((bet) => bet.status === 'completed');
    default: {
      const unknownTab: never = tab;
      throw new Error(`Unknown tab ${String(unknownTab)}`);
    }
  }
}
