import type { ReactNode } from 'react';
import { REPORT_STANDS_TEXT } from '../../utils/report-stands.ts';
import type { User } from '@wagers/contracts/api/user';
import { displayName } from '@wagers/contracts/api/display';
import { formatDate, formatWager } from '@/lib/format.ts';
import type { BetDraft } from '../../utils/bet-draft.ts';

export function StepReview({
  draft,
  friends,
  isAuthenticated,
}: {
  draft: BetDraft;
  friends: readonly User[] | undefined;
  isAuthenticated: boolean;
}) {
  const friend = friends?.find((candidate) => candidate.id === draft.selectedFriendId);
  const opponent = draft.isInviteMode
    ? `Invite: ${draft.inviteeEmail || draft.inviteePhone}`
    : friend
      ? displayName(friend)
      : 'Selected friend';
  return (
    <div className="grid gap-4">
      <dl
        className="grid gap-3 rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm"
        data-testid="bet-review"
      >
        <Row label="Opponent">{opponent}</Row>
        <Row label="Title">{draft.title}</Row>
        <Row label="Description">
          <span className="whitespace-pre-line">{draft.description}</span>
        </Row>
        <Row label="Wager">
          {formatWager({
            wagerType: draft.wagerType,
            wagerAmount: draft.wagerAmount,
            wagerDescription: draft.wagerDescription,
          })}
        </Row>
        <Row label="End date">{draft.endDate ? formatDate(draft.endDate) : 'No end date'}</Row>
        <Row label="Winner confirmation">
          {draft.validationMode === 'both' ? 'Both must confirm' : 'First to submit decides'}
        </Row>
        {draft.validationMode === 'both' && draft.reportStands ? (
          <Row label="If no answer">{REPORT_STANDS_TEXT}</Row>
        ) : null}
      </dl>
      {isAuthenticated ? null : (
        <p className="rounded-lg border border-indigo-200 bg-indigo-50 p-3 text-sm text-indigo-950">
          Your bet is saved on this device. Sign in or create your account, then send it.
        </p>
      )}
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[10rem_1fr] sm:gap-3">
      <dt className="text-slate-600">{label}</dt>
      <dd className="break-words text-slate-900">{children}</dd>
    </div>
  );
}
