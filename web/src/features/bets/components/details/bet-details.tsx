import { Link } from 'react-router-dom';
import { ApiError } from '@/lib/api-client.ts';
import { ButtonLink } from '@/components/ui/button.tsx';
import { MessageCard } from '@/components/feedback/message-card.tsx';
import { Icon } from '@/components/ui/icons.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { LoadingStatus } from '@/components/feedback/loading-status.tsx';
import { paths } from '@/config/paths.ts';
import { useBet } from '../../api/get-bet.ts';
import { canResolve, showsAgreement, roleOf } from '../../utils/bet-view.ts';
import { BetHistory } from './bet-history.tsx';
import { BetTermsCard } from './bet-terms-card.tsx';
import { BetSummaryCard } from './bet-summary-card.tsx';
import { CreatorBanner } from './creator-banner.tsx';
import { OpponentBanner } from './opponent-banner.tsx';
import { ParticipantsCard } from './participants-card.tsx';
import { ResolveCard } from './resolve-card.tsx';
import { ResultBanner } from './result-banner.tsx';
import { hasSettlement, SettlementCard } from './settlement-card.tsx';

export function BetDetails({ betId, userId }: { betId: string; userId: string }) {
  const { data: bet, isPending, isError, error, failureReason } = useBet(betId);

  if (isPending) return <BetDetailsSkeleton failure={failureReason} />;
  if (isError) {
    // Only the server's word makes a bet missing: a failed connection says nothing about it.
    if (!(error instanceof ApiError))
      return <BetUnavailable message="The connection failed. Check it and try again." />;
    const missing = error.status === 404 || error.status === 403 || error.status === 400;
    return <BetUnavailable message={missing ? undefined : error.message} />;
  }

  const role = roleOf(bet, userId);
  return (
    <div className="grid gap-4" data-testid="bet-details" data-bet-id={bet.id}>
      <BackLink />
      {bet.status === 'pending' && role === 'opponent' ? <OpponentBanner bet={bet} /> : null}
      {bet.status === 'pending' && role === 'creator' ? <CreatorBanner bet={bet} /> : null}
      {bet.status === 'completed' ? <ResultBanner bet={bet} userId={userId} /> : null}
      <div className="grid gap-4 lg:grid-cols-[3fr_2fr]">
        <div className="grid content-start gap-4">
          <BetSummaryCard bet={bet} />
          <BetTermsCard bet={bet} role={role} userId={userId} />
          {canResolve(bet, role) || showsAgreement(bet, role) ? (
            <ResolveCard bet={bet} role={role} />
          ) : null}
          {hasSettlement(bet) ? <SettlementCard bet={bet} userId={userId} /> : null}
        </div>
        <div className="grid content-start gap-4">
          <ParticipantsCard bet={bet} userId={userId} />
          <BetHistory betId={bet.id} />
        </div>
      </div>
    </div>
  );
}

function BackLink() {
  return (
    <Link
      to={paths.home}
      className="inline-flex w-fit items-center gap-1 rounded text-sm font-medium text-indigo-800 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <Icon name="arrowLeft" />
      Back to dashboard
    </Link>
  );
}

function BetUnavailable({ message }: { message?: string }) {
  return (
    <MessageCard
      testId="bet-not-found"
      title={message ? 'Could not load this bet' : 'Bet not found'}
      action={<ButtonLink to={paths.home}>Back to dashboard</ButtonLink>}
    >
      {message ?? 'This bet does not exist, or you are not one of its participants.'}
    </MessageCard>
  );
}

function BetDetailsSkeleton({ failure }: { failure: Error | null }) {
  return (
    <LoadingStatus label="Loading bet" failure={failure} className="grid gap-4">
      <Skeleton className="h-5 w-40" />
      <Skeleton className="h-48 w-full" />
      <Skeleton className="h-40 w-full" />
    </LoadingStatus>
  );
}
