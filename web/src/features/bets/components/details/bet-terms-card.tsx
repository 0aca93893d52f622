import type { Bet } from '@wagers/contracts/api/bets';
import { ErrorMessage } from '@/components/feedback/error-message.tsx';
import { Button } from '@/components/ui/button.tsx';
import { toast } from '@/components/ui/toast/use-toast.ts';
import { formatDateTime } from '@/lib/format.ts';
import { useAcceptDraw } from '../../api/accept-draw.ts';
import { useBetTerms } from '../../api/get-bet-terms.ts';
import { useOfferDraw } from '../../api/offer-draw.ts';
import { REPORT_STANDS_TEXT } from '../../utils/report-stands.ts';
import { resolutionPhase, type Role } from '../../utils/bet-view.ts';

/**
 * How this bet can end without matching reports: the creator's standing report (shown from the
 * proposal on, so the opponent sees it before accepting) and, in a disagreement, a draw offer.
 */
export function BetTermsCard({ bet, role, userId }: { bet: Bet; role: Role; userId: string }) {
  const { data: terms, error } = useBetTerms(bet.id);
  const offer = useOfferDraw({
    mutationConfig: { onSuccess: () => void toast({ title: 'Draw offered' }) },
  });
  const accept = useAcceptDraw({
    mutationConfig: { onSuccess: () => void toast({ title: 'Draw accepted' }) },
  });
  // Terms that could not load are said so: nobody is told the bet has none.
  if (!terms) return error ? <ErrorMessage what="this bet's terms" error={error} /> : null;
  const disagreed = resolutionPhase(bet, role).phase === 'disagreed' && bet.status !== 'completed';
  const stands = terms.reportStands && bet.status !== 'completed';
  if (!stands && !disagreed && terms.settledBy !== 'draw' && terms.settledBy !== 'standing')
    return null;
  return (
    <section
      aria-label="Ending a stall or a disagreement"
      data-testid="bet-terms"
      className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 text-sm shadow-sm"
    >
      {stands ? (
        <p className="text-slate-800">
          <span className="font-medium">Creator&rsquo;s terms:</span> {REPORT_STANDS_TEXT}
          {terms.standsAt ? ` It stands from ${formatDateTime(terms.standsAt)}.` : ''}
        </p>
      ) : null}
      {terms.settledBy === 'draw' ? (
        <p className="text-slate-800">Both agreed to call it a draw.</p>
      ) : null}
      {terms.settledBy === 'standing' ? (
        <p className="text-slate-800">The creator&rsquo;s report stood: no answer within 7 days.</p>
      ) : null}
      {disagreed ? (
        <div className="flex flex-wrap items-center gap-2">
          {terms.drawOfferedBy === null ? (
            <Button
              variant="outline"
              onClick={() => offer.mutate(bet.id)}
              disabled={offer.isPending}
            >
              Offer a draw
            </Button>
          ) : terms.drawOfferedBy === userId ? (
            <p className="text-slate-700" role="status">
              You offered to call it a draw. Waiting for an answer.
            </p>
          ) : (
            <>
              <p className="text-slate-700">Your friend offered to call it a draw.</p>
              <Button onClick={() => accept.mutate(bet.id)} disabled={accept.isPending}>
                Accept draw
              </Button>
            </>
          )}
        </div>
      ) : null}
    </section>
  );
}
