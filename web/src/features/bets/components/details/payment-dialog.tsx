import type { Bet } from '@wagers/contracts/api/bets';
import { displayName } from '@wagers/contracts/api/display';
import { formatUsd } from '@wagers/contracts/api/money';
import { Button, ButtonAnchor } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog.tsx';
import { Icon } from '@/components/ui/icons.tsx';
import { site } from '@/config/site.ts';
import { venmoPayUrl, wagerCents } from '../../utils/venmo.ts';

/** A mock hand-off to a payment app: the loser settles directly with the winner. */
export function PaymentDialog({ bet }: { bet: Bet }) {
  const amount = formatUsd(wagerCents(bet));
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button data-testid="pay-button">
          <Icon name="dollar" />
          Pay with Venmo
        </Button>
      </DialogTrigger>
      <DialogContent data-testid="payment-dialog">
        <DialogHeader>
          <DialogTitle>Pay with Venmo</DialogTitle>
          <DialogDescription>
            Send {amount} to {displayName(bet.winner)} for &ldquo;{bet.title}&rdquo;.
          </DialogDescription>
        </DialogHeader>
        <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700">
          {site.name} never holds or moves money. Venmo opens in a new tab, where you complete the
          payment yourself.
        </p>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Close</Button>
          </DialogClose>
          <ButtonAnchor
            href={venmoPayUrl(bet)}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="venmo-link"
          >
            Open Venmo
            <Icon name="externalLink" />
            <span className="sr-only">(opens in a new tab)</span>
          </ButtonAnchor>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
