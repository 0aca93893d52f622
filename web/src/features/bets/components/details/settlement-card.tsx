import type { Bet } from '@wagers/contracts/api/bets';
import type { Settlement } from '@wagers/contracts/api/settle-up';
import { displayName } from '@wagers/contracts/api/display';
import { formatUsd } from '@wagers/contracts/api/money';
import { ErrorMessage } from '@/components/feedback/error-message.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { toast } from '@/components/ui/toast/use-toast.ts';
import { LoadingStatus } from '@/components/feedback/loading-status.tsx';
import { useConfirmReceipt } from '../../api/confirm-receipt.ts';
import { useSettlement } from '../../api/get-settlement.ts';
import { useMarkPaid } from '../../api/mark-paid.ts';
import { useReportNotReceived } from '../../api/report-not-received.ts';

/** A completed money bet with a winner has money to settle between the two. */
export const hasSettlement = (bet: Bet) =>
  bet.status === 'completed' &&
  bet.wagerType === 'money' &&
  bet.winnerId !== null &&
  (bet.wagerAmountCents ?? 0) > 0;

function statusLine(settlement: Settlement, userId: string, otherName: string): string {
  const amount = formatUsd(settlement.amountCents);
  const iWon = settlement.winnerId === userId;
  switch (settlement.status) {
    case 'unpaid':
      return iWon ? `${otherName} owes you ${amount}.` : `You owe ${otherName} ${amount}.`;
    case 'marked_paid':
      return iWon
        ? `${otherName} says they paid you ${amount}. Did it arrive?`
        : `You marked ${amount} as paid. Waiting for ${otherName} to confirm.`;
    case 'confirmed':
      return iWon ? `${otherName} paid you ${amount}. Settled.` : `You paid ${amount}. Settled.`;
  }
}

/** Settling up on the bet page: the loser marks it paid, the winner confirms or says not received. */
export function SettlementCard({ bet, userId }: { bet: Bet; userId: string }) {
  const { data: settlement, isPending, error, failureReason } = useSettlement(bet.id, true);
  const done = (title: string) => ({ onSuccess: () => void toast({ title }) });
  const markPaid = useMarkPaid({ betId: bet.id, mutationConfig: done('Marked as paid') });
  const confirm = useConfirmReceipt({ betId: bet.id, mutationConfig: done('Payment confirmed') });
  const notReceived = useReportNotReceived({
    betId: bet.id,
    mutationConfig: done('Marked as not received'),
  });
  const other = bet.creatorId === userId ? bet.opponent : bet.creator;
  const busy = markPaid.isPending || confirm.isPending || notReceived.isPending;

  return (
    <Card data-testid="settlement-card">
      <CardHeader>
        <CardTitle>Settle up</CardTitle>
        <CardDescription>
          The loser pays the winner directly; both of you keep track here.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {/* A settlement that could not load is said so, not left loading. */}
        {!settlement && error ? (
          <ErrorMessage what="the settlement" error={error} />
        ) : isPending || !settlement ? (
          <LoadingStatus label="Loading settlement" failure={failureReason}>
            <Skeleton className="h-10 w-full" />
          </LoadingStatus>
        ) : (
          <>
            <p
              role="status"
              data-testid="settlement-status"
              data-status={settlement.status}
              className="rounded-lg bg-slate-50 p-3 text-sm font-medium text-slate-800"
            >
              {statusLine(settlement, userId, displayName(other))}
            </p>
            <div className="flex flex-wrap gap-2">
              {settlement.loserId === userId && settlement.status === 'unpaid' ? (
                <Button
                  data-testid="mark-paid"
                  disabled={busy}
                  onClick={() => markPaid.mutate(bet.id)}
                >
                  I paid
                </Button>
              ) : null}
              {settlement.winnerId === userId && settlement.status === 'marked_paid' ? (
                <>
                  <Button
                    data-testid="confirm-receipt"
                    disabled={busy}
                    onClick={() => confirm.mutate(bet.id)}
                  >
                    I received it
                  </Button>
                  <Button
                    variant="outline"
                    data-testid="not-received"
                    disabled={busy}
                    onClick={() => notReceived.mutate(bet.id)}
                  >
                    Not received
                  </Button>
                </>
              ) : null}
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
