import { useEffect, useState, type FormEvent } from 'react';
import { createBetRequestSchema } from '@wagers/contracts/api/bets';
import { Link, useNavigate } from 'react-router-dom';
import type { User } from '@wagers/contracts/api/user';
import { Button, buttonVariants } from '@/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { toast } from '@/components/ui/toast/use-toast.ts';
import { paths } from '@/config/paths.ts';
import { goToLogin } from '@/lib/auth.ts';
import { copyToClipboard } from '@/lib/clipboard.ts';
import { todayIso } from '@/lib/format.ts';
import { useCreateBet } from '../../api/create-bet.ts';
import {
  clearDraft,
  isWorthSaving,
  keyForSend,
  newDraft,
  saveDraft,
  takeDraft,
  type BetDraft,
  type WizardStep,
} from '../../utils/bet-draft.ts';
import {
  problemText,
  stepProblem,
  submitProblem,
  toCreateBetRequest,
} from '../../utils/wizard-rules.ts';
import { StepDetails } from './step-details.tsx';
import { StepOpponent, type FriendsList } from './step-opponent.tsx';
import { StepReview } from './step-review.tsx';
import { StepWager } from './step-wager.tsx';
import { STEP_TITLES, WizardProgress } from './wizard-progress.tsx';

type Props = {
  user: User | null;
  friends: FriendsList;
  /** From ?opponentId=: preselects that friend and starts at step 2. */
  opponentId: string | null;
};

function openingDraft(isAuthenticated: boolean, opponentId: string | null): BetDraft {
  const draft = takeDraft(isAuthenticated) ?? newDraft(isAuthenticated);
  if (!isAuthenticated) return { ...draft, isInviteMode: true };
  if (opponentId) return { ...draft, selectedFriendId: opponentId, isInviteMode: false, step: 2 };
  return draft;
}

export function CreateBetWizard({ user, friends, opponentId }: Props) {
  const isAuthenticated = user !== null;
  const navigate = useNavigate();
  const [draft, setDraft] = useState(() => openingDraft(isAuthenticated, opponentId));
  const update = (patch: Partial<BetDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const today = todayIso();
  const sender = user ? { email: user.email } : null;
  const problem = stepProblem(draft, draft.step, today, sender);

  useEffect(() => {
    if (isWorthSaving(draft)) saveDraft(draft);
  }, [draft]);

  const create = useCreateBet({
    mutationConfig: {
      onSuccess: async (bet) => {
        clearDraft();
        const link = bet.invite?.inviteLink;
        if (link) {
          const copied = await copyToClipboard(link);
          toast({
            title: 'Bet created with invite!',
            description: copied
              ? 'The invite link is copied to your clipboard. Share it with your friend.'
              : `Copy this link and share it with your friend: ${link}`,
          });
        } else {
          toast({ title: 'Bet created!', description: 'Your friend has been sent an invitation.' });
        }
        await navigate(paths.bet(bet.id));
      },
    },
  });

  const goTo = (step: WizardStep) => {
    update({ step });
    // Moving the focus to the new step's heading tells screen readers the content changed.
    requestAnimationFrame(() => document.getElementById('wizard-step-title')?.focus());
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.step < 4) {
      if (!problem) goTo((draft.step + 1) as WizardStep);
      return;
    }
    const blocking = submitProblem(draft, today, sender);
    if (blocking) {
      toast({ title: blocking.title, description: blocking.description, variant: 'destructive' });
      return;
    }
    if (!isAuthenticated) {
      saveDraft(draft);
      goToLogin(paths.createBet);
      return;
    }
    const body = toCreateBetRequest(draft);
    // The same schema the server applies: what it would refuse is said here, before sending.
    const checked = createBetRequestSchema.safeParse(body);
    if (!checked.success) {
      const [first] = checked.error.issues;
      toast({ title: first?.message ?? 'Please check the bet', variant: 'destructive' });
      return;
    }
    // Saved before sending: after a reload, the same bet goes out under the same key.
    const { key, draft: keyed } = keyForSend(draft, body);
    if (keyed !== draft) {
      saveDraft(keyed);
      setDraft(keyed);
    }
    create.mutate({ body, idempotencyKey: key });
  };

  return (
    <Card className="mx-auto w-full max-w-2xl" data-testid="create-bet-wizard">
      <CardHeader className="gap-4">
        <h1 className="text-2xl font-bold text-slate-900">Create a Bet</h1>
        <WizardProgress step={draft.step} />
      </CardHeader>
      <CardContent>
        <form
          onSubmit={submit}
          noValidate
          className="grid gap-6"
          aria-labelledby="wizard-step-title"
        >
          <CardTitle>
            <span id="wizard-step-title" tabIndex={-1} className="outline-none">
              {STEP_TITLES[draft.step]}
            </span>
          </CardTitle>
          {draft.step === 1 ? (
            <StepOpponent
              draft={draft}
              update={update}
              isAuthenticated={isAuthenticated}
              friends={friends}
            />
          ) : null}
          {draft.step === 2 ? <StepDetails draft={draft} update={update} /> : null}
          {draft.step === 3 ? <StepWager draft={draft} update={update} /> : null}
          {draft.step === 4 ? (
            <StepReview draft={draft} friends={friends.data} isAuthenticated={isAuthenticated} />
          ) : null}

          <p
            aria-live="polite"
            className="min-h-5 text-sm text-slate-600"
            data-testid="wizard-hint"
          >
            {problem ? problemText(problem) : ''}
          </p>

          <div className="flex flex-col-reverse gap-3 border-t border-slate-200 pt-4 sm:flex-row sm:items-center sm:justify-between">
            <Link to={paths.home} className={buttonVariants({ variant: 'ghost' })}>
              Cancel
            </Link>
            <div className="flex flex-col-reverse gap-3 sm:flex-row">
              {draft.step > 1 ? (
                <Button variant="outline" onClick={() => goTo((draft.step - 1) as WizardStep)}>
                  Back
                </Button>
              ) : null}
              {draft.step < 4 ? (
                <Button type="submit" disabled={problem !== null}>
                  Next
                </Button>
              ) : (
                <Button type="submit" disabled={create.isPending} data-testid="send-bet">
                  {isAuthenticated
                    ? create.isPending
                      ? 'Sending...'
                      : 'Send Bet Invitation'
                    : 'Sign In to Send Invitation'}
                </Button>
              )}
            </div>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
