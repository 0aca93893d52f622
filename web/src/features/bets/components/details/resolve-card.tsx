import { useState } from 'react';
import { resolutions } from '@wagers/contracts/api/bet-rules';
import type { Bet, Resolution } from '@wagers/contracts/api/bets';
import { Button } from '@/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { RadioCard, RadioGroup } from '@/components/ui/radio-group.tsx';
import { toast } from '@/components/ui/toast/use-toast.ts';
import { useResolveBet } from '../../api/resolve-bet.ts';
import { resolutionLabel, resolutionPhase, type Role } from '../../utils/bet-view.ts';

const phaseMessages = {
  waiting: 'Waiting for the other party to confirm',
  agreed: 'Both parties agree on the outcome!',
  disagreed: "There's a disagreement. Please discuss and resubmit.",
} as const;

/** How this bet is decided, for the person about to report. */
function description(bet: Bet, role: Role): string {
  const other = role === 'creator' ? bet.opponent : role === 'opponent' ? bet.creator : null;
  if (other?.deleted)
    return 'The other side deleted their account: your report decides the outcome.';
  return bet.validationMode === 'both'
    ? 'Both of you report who won; the bet completes when your reports match.'
    : 'The first report decides the outcome.';
}

export function ResolveCard({ bet, role }: { bet: Bet; role: Role }) {
  const { phase, mine, theirs } = resolutionPhase(bet, role);
  const [choice, setChoice] = useState<Resolution | ''>(mine ?? '');
  const resolve = useResolveBet({
    mutationConfig: { onSuccess: () => void toast({ title: 'Resolution submitted' }) },
  });

  return (
    <Card data-testid="resolve-card">
      <CardHeader>
        <CardTitle>Resolve Bet</CardTitle>
        <CardDescription>{description(bet, role)}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {phase !== 'open' ? (
          <p
            role="status"
            data-testid="resolution-status"
            className={
              phase === 'disagreed'
                ? 'rounded-lg bg-red-50 p-3 text-sm font-medium text-red-800'
                : 'rounded-lg bg-indigo-50 p-3 text-sm font-medium text-indigo-900'
            }
          >
            {phaseMessages[phase]}
          </p>
        ) : null}
        {mine || theirs ? (
          <ul className="grid gap-1 text-sm text-slate-700">
            {mine ? <li>Your report: {resolutionLabel(bet, mine)}</li> : null}
            {theirs ? <li>Their report: {resolutionLabel(bet, theirs)}</li> : null}
          </ul>
        ) : null}
        {phase === 'open' || phase === 'disagreed' ? (
          <form
            className="grid gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              if (choice) resolve.mutate({ id: bet.id, resolution: choice });
            }}
          >
            <fieldset className="grid gap-2">
              <legend className="mb-2 text-sm font-medium text-slate-900">Who won?</legend>
              <RadioGroup
                value={choice}
                onValueChange={(value) => setChoice(value as Resolution)}
                aria-label="Who won?"
              >
                {resolutions.map((resolution) => (
                  <RadioCard
                    key={resolution}
                    id={`resolution-${resolution}`}
                    value={resolution}
                    title={resolutionLabel(bet, resolution)}
                  />
                ))}
              </RadioGroup>
            </fieldset>
            <Button type="submit" disabled={!choice || resolve.isPending}>
              {resolve.isPending ? 'Submitting...' : 'Submit Resolution'}
            </Button>
          </form>
        ) : null}
      </CardContent>
    </Card>
  );
}
