import type { Bet } from '@wagers/contracts/api/bets';
import { displayName } from '@wagers/contracts/api/display';
import { mustPay } from '../../utils/bet-view.ts';
import { Banner } from './banner.tsx';
import { PaymentDialog } from './payment-dialog.tsx';

export function ResultBanner({ bet, userId }: { bet: Bet; userId: string }) {
  const title =
    bet.winnerId === null
      ? "It's a draw"
      : bet.winnerId === userId
        ? 'You won!'
        : `${displayName(bet.winner)} won`;
  return (
    <Banner
      tone={bet.winnerId === userId ? 'success' : 'neutral'}
      testId="result-banner"
      title={title}
      actions={mustPay(bet, userId) ? <PaymentDialog bet={bet} /> : null}
    >
      Bet completed
    </Banner>
  );
}
