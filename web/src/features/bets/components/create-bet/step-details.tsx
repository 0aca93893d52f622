import { BET_LIMITS } from '@wagers/contracts/api/bet-rules';
import type { ValidationMode } from '@wagers/contracts/api/bets';
import { Input } from '@/components/ui/input.tsx';
import { Checkbox } from '@/components/ui/checkbox.tsx';
import { REPORT_STANDS_TEXT } from '../../utils/report-stands.ts';
import { Label } from '@/components/ui/label.tsx';
import { RadioCard, RadioGroup } from '@/components/ui/radio-group.tsx';
import { todayIso } from '@/lib/format.ts';
import type { BetDraft } from '../../utils/bet-draft.ts';
import { LimitedTextField } from './limited-text-field.tsx';

export function StepDetails({
  draft,
  update,
}: {
  draft: BetDraft;
  update: (patch: Partial<BetDraft>) => void;
}) {
  return (
    <div className="grid gap-5">
      <LimitedTextField
        id="bet-title"
        label="Title"
        max={BET_LIMITS.title}
        placeholder="e.g. Lakers win tonight"
        value={draft.title}
        onChange={(title) => update({ title })}
      />
      <LimitedTextField
        id="bet-description"
        label="Description"
        multiline
        max={BET_LIMITS.description}
        placeholder="What exactly are you betting on? How is the winner decided?"
        value={draft.description}
        onChange={(description) => update({ description })}
      />
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
          <RadioCard
            id="validation-one"
            value="one"
            title="First to submit decides"
            hint="The first report settles the bet."
          />
        </RadioGroup>
      </fieldset>
      {draft.validationMode === 'both' ? (
        <div className="flex items-start gap-3 rounded-lg border border-slate-200 p-3">
          <Checkbox
            id="bet-report-stands"
            checked={draft.reportStands}
            onCheckedChange={(checked) => update({ reportStands: checked === true })}
          />
          <Label htmlFor="bet-report-stands" className="leading-snug font-normal text-slate-800">
            {REPORT_STANDS_TEXT}
          </Label>
        </div>
      ) : null}
    </div>
  );
}
