import { cn } from '@/lib/cn.ts';
import { WIZARD_STEPS, type WizardStep } from '../../utils/bet-draft.ts';

export const STEP_TITLES: Record<WizardStep, string> = {
  1: 'Select Friend',
  2: 'Bet Details',
  3: 'Wager',
  4: 'Review',
};

export function WizardProgress({ step }: { step: WizardStep }) {
  return (
    <div className="grid gap-3">
      <p className="text-sm font-medium text-slate-700" data-testid="wizard-step">
        Step {step} of {WIZARD_STEPS.length}: {STEP_TITLES[step]}
      </p>
      <div
        role="progressbar"
        aria-label="Progress"
        aria-valuemin={1}
        aria-valuemax={WIZARD_STEPS.length}
        aria-valuenow={step}
        aria-valuetext={`Step ${step} of ${WIZARD_STEPS.length}`}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className="h-full rounded-full bg-indigo-700 transition-all"
          style={{ width: `${(step / WIZARD_STEPS.length) * 100}%` }}
        />
      </div>
      <ol className="hidden grid-cols-4 gap-2 text-xs sm:grid">
        {WIZARD_STEPS.map((item) => (
          <li
            key={item}
            aria-current={item === step ? 'step' : undefined}
            className={cn(
              item === step
                ? 'font-semibold text-indigo-800'
                : item < step
                  ? 'text-slate-700'
                  : 'text-slate-600',
            )}
          >
            {item}. {STEP_TITLES[item]}
          </li>
        ))}
      </ol>
    </div>
  );
}
