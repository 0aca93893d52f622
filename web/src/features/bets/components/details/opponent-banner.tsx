import type { Bet } from '@wagers/contracts/api/bets';
import { displayName } from '@wagers/contracts/api/display';
import { Button } from '@/components/ui/button.tsx';
import { Icon } from '@/components/ui/icons.tsx';
import { toast } from '@/components/ui/toast/use-toast.ts';
import { useAcceptBet } from '../../api/accept-bet.ts';
import { useDeclineBet } from '../../api/decline-bet.ts';
import { Banner } from './banner.tsx';

/** The invited opponent answers a pending bet. */
export function OpponentBanner({ bet }: { bet: Bet }) {
  const accept = useAcceptBet({
    mutationConfig: {
      onSuccess: () => void toast({ title: 'Bet accepted!', description: 'The bet is now active' }),
    },
  });
  const decline = useDeclineBet({
    mutationConfig: { onSuccess: () => void toast({ title: 'Bet declined' }) },
  });
  const busy = accept.isPending || decline.isPending;
  return (
    <Banner
      tone="info"
      testId="opponent-banner"
      title="You've been challenged!"
      actions={
        <>
          <Button disabled={busy} onClick={() => accept.mutate(bet.id)}>
            <Icon name="check" />
            Accept
          </Button>
          <Button variant="outline" disabled={busy} onClick={() => decline.mutate(bet.id)}>
            <Icon name="x" />
            Decline
          </Button>
        </>
      }
    >
      {displayName(bet.creator)} proposed this bet. Accept to make it active, or decline.
    </Banner>
  );
}
