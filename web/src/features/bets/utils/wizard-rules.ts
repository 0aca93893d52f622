import { BET_LIMITS, BET_MESSAGES, MIN_WAGER_CENTS } from '@wagers/contracts/api/bet-rules';
import type { CreateBetRequest } from '@wagers/contracts/api/bets';
import { checkInvitee } from '@wagers/contracts/api/invitee';
import { parseDollarsToCents } from '@wagers/contracts/api/money';
import type { BetDraft, WizardStep } from './bet-draft.ts';

/** Why the wizard cannot move on; the toast shows `title` and `description`. */
export type Problem = { title: string; description?: string };

export const problems = {
  selectFriend: { title: 'Please select a friend' },
  invitee: { title: 'Please enter an email or phone number' },
  smsConsent: {
    title: 'SMS Consent Required',
    description: 'Please confirm you have permission to send SMS to this number',
  },
  missing: { title: 'Missing information', description: 'Please fill in all required fields' },
  pastEndDate: { title: 'Please choose an end date from today onwards' },
  amount: { title: BET_MESSAGES.amountMissing },
  amountFormat: { title: BET_MESSAGES.amountFormat },
  wagerDescription: { title: "Please describe what you're wagering" },
} as const satisfies Record<string, Problem>;

export function problemText(problem: Problem): string {
  return problem.description ? `${problem.title}: ${problem.description}` : problem.title;
}

/** Who is creating the bet, as far as the wizard knows: their own address is no invitee. */
export type Sender = { email: string | null };

/** The newcomer's rules are the request schema's (contracts' `checkInvitee`), in the step's words. */
function inviteeProblem(draft: BetDraft, sender: Sender | null): Problem | null {
  const checked = checkInvitee(
    {
      inviteeEmail: draft.inviteeEmail,
      inviteePhone: draft.inviteePhone,
      smsConsent: draft.smsConsent,
    },
    sender ?? undefined,
  );
  if (checked.ok) return null;
  if (checked.refusal.rule === 'emailOrPhone') return problems.invitee;
  if (checked.refusal.rule === 'smsConsent') return problems.smsConsent;
  return { title: checked.refusal.message };
}

/** The first requirement of `step` that the draft does not meet, or null when Next may proceed. */
export function stepProblem(
  draft: BetDraft,
  step: WizardStep,
  today: string,
  sender: Sender | null = null,
): Problem | null {
  switch (step) {
    case 1:
      if (!draft.isInviteMode) return draft.selectedFriendId ? null : problems.selectFriend;
      return inviteeProblem(draft, sender);
    case 2:
      if (!draft.title.trim() || !draft.description.trim()) return problems.missing;
      if (
        draft.title.length > BET_LIMITS.title ||
        draft.description.length > BET_LIMITS.description
      ) {
        return problems.missing;
      }
      return draft.endDate && draft.endDate < today ? problems.pastEndDate : null;
    case 3:
      if (draft.wagerType === 'money') {
        if (!draft.wagerAmount.trim()) return problems.amount;
        return isAmount(draft.wagerAmount) ? null : problems.amountFormat;
      }
      if (
        !draft.wagerDescription.trim() ||
        draft.wagerDescription.length > BET_LIMITS.wagerDescription
      ) {
        return problems.wagerDescription;
      }
      return null;
    case 4:
      return null;
    default: {
      const unknown: never = step;
      throw new Error(`Unknown step ${String(unknown)}`);
    }
  }
}

/** Checked again on submit, in the order the steps come. */
export function submitProblem(
  draft: BetDraft,
  today: string,
  sender: Sender | null = null,
): Problem | null {
  for (const step of [1, 2, 3] as const) {
    const problem = stepProblem(draft, step, today, sender);
    if (problem) return problem;
  }
  return null;
}

/** As the request schema reads it: dollars with at most two decimals, at least one cent. */
function isAmount(value: string): boolean {
  const cents = parseDollarsToCents(value);
  return cents !== null && cents >= MIN_WAGER_CENTS;
}

/** The POST /api/bets body: only the wager field that applies, then the newcomer or the friend. */
export function toCreateBetRequest(draft: BetDraft): CreateBetRequest {
  const body = {
    title: draft.title.trim(),
    description: draft.description.trim(),
    wagerType: draft.wagerType,
    ...(draft.wagerType === 'money'
      ? { wagerAmount: draft.wagerAmount.trim() }
      : { wagerDescription: draft.wagerDescription.trim() }),
    endDate: draft.endDate || null,
    validationMode: draft.validationMode,
    ...(draft.validationMode === 'both' && draft.reportStands ? { reportStands: true } : {}),
  };
  if (draft.isInviteMode) {
    if (draft.inviteeEmail.trim()) return { ...body, inviteeEmail: draft.inviteeEmail.trim() };
    if (!draft.smsConsent) throw new Error('No SMS consent');
    return { ...body, inviteePhone: draft.inviteePhone.trim(), smsConsent: true };
  }
  if (!draft.selectedFriendId) throw new Error('No friend selected');
  return { ...body, opponentId: draft.selectedFriendId };
}
