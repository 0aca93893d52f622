import { BET_LIMITS } from '@wagers/contracts/api/bet-rules';
import type { WagerType } from '@wagers/contracts/api/bets';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { RadioCard, RadioGroup } from '@/components/ui/radio-group.tsx';
import type { BetDraft } from '../../utils/bet-draft.ts';
import { LimitedTextField } from './limited-text-field.tsx';

export function StepWager({
  draft,
  update,
}: {
  draft: BetDraft;
  update: (patch: Partial<BetDraft>) => void;
}) {
  return (
    <div className="grid gap-5">
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium text-slate-900">Wager type</legend>
        <RadioGroup
          aria-label="Wager type"
          value={draft.wagerType}
          onValueChange={(value) => update({ wagerType: value as WagerType })}
          className="sm:grid-cols-2"
        >
          <RadioCard
            id="wager-money"
            value="money"
            title="Money"
            hint="A dollar amount you settle between yourselves."
          />
          <RadioCard
            id="wager-custom"
            value="custom"
            title="Custom"
            hint="Dinner, chores, bragging rights..."
          />
        </RadioGroup>
      </fieldset>
      {draft.wagerType === 'money' ? (
        <div className="grid gap-2">
          <Label htmlFor="wager-amount">Amount (USD)</Label>
          <div className="relative sm:max-w-56">
            <span
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-600"
            >
              $
            </span>
            <Input
              id="wager-amount"
              type="number"
              inputMode="decimal"
              step="0.01"
              min="0"
              placeholder="0.00"
              className="pl-7"
              aria-describedby="wager-amount-hint"
              value={draft.wagerAmount}
              onChange={(event) => update({ wagerAmount: event.target.value })}
            />
          </div>
          <p id="wager-amount-hint" className="text-xs text-slate-600">
            Wagers never holds or moves money; you settle up yourselves.
          </p>
        </div>
      ) : (
        <LimitedTextField
          id="wager-description"
          label="What are you wagering?"
          multiline
          max={BET_LIMITS.wagerDescription}
          placeholder="e.g. Loser buys dinner"
          value={draft.wagerDescription}
          onChange={(wagerDescription) => update({ wagerDescription })}
        />
      )}
    </div>
  );
}
