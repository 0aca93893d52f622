import { BET_LIMITS, type ValidationMode } from '@wagers/contracts/api/bets';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { RadioCard, RadioGroup } from '@/components/ui/radio-group.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { todayIso } from '@/lib/format.ts';
import type { BetDraft } from '../../utils/bet-draft.ts';
import { CharCounter } from './char-counter.tsx';

export function StepDetails({ draft, update }: { draft: BetDraft; update: (patch: Partial<BetDraft>) => void }) {
  return (
    <div className="grid gap-5">
      <div className="grid gap-2">
        <Label htmlFor="bet-title">Title</Label>
        <Input
          id="bet-title"
          required
          maxLength={BET_LIMITS.title}
          placeholder="e.g. Lakers win tonight"
          aria-describedby="bet-title-count"
          value={draft.title}
          onChange={(event) => update({ title: event.target.value })}
        />
        <CharCounter id="bet-title-count" length={draft.title.length} max={BET_LIMITS.title} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="bet-description">Description</Label>
        <Textarea
          id="bet-description"
          required
          maxLength={BET_LIMITS.description}
          placeholder="What exactly are you betting on? How is the winner decided?"
          aria-describedby="bet-description-count"
          value={draft.description}
          onChange={(event) => update({ description: event.target.value })}
        />
        <CharCounter id="bet-description-count" length={draft.description.length} max={BET_LIMITS.description} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="bet-end-date">End date (optional)</Label>
        <Input
          id="bet-end-date"
          type="date"
          min={todayIso()}
          className="sm:max-w-56"
          value={draft.endDate}
          onChange={(event) => update({ endDate: event.target.value })}
        />
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium text-slate-900">Winner confirmation</legend>
        <RadioGroup
          aria-label="Winner confirmation"
          value={draft.validationMode}
          onValueChange={(value) => update({ validationMode: value as ValidationMode })}
        >
          <RadioCard
            id="validation-both"
            value="both"
            title="Both must confirm"
            hint="You both report the same winner before the bet completes."
          />
          <RadioCard id="validation-one" value="one" title="First to submit decides" hint="The first report settles the bet." />
        </RadioGroup>
      </fieldset>
    </div>
  );
}
