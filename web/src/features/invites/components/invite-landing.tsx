import { useEffect, type ReactNode } from 'react';
import type { AcceptInviteResponse, InviteView } from '@wagers/contracts/api/invites';
import type { User } from '@wagers/contracts/api/user';
import { displayName } from '@wagers/contracts/api/display';
import { Button, ButtonAnchor, ButtonLink } from '@/components/ui/button.tsx';
import { MessageCard } from '@/components/feedback/message-card.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card.tsx';
import { Icon } from '@/components/ui/icons.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { toast } from '@/components/ui/toast/use-toast.ts';
import { UserAvatar } from '@/components/user-avatar.tsx';
import { LoadingStatus } from '@/components/feedback/loading-status.tsx';
import { paths } from '@/config/paths.ts';
import { goToLogin } from '@/lib/auth.ts';
import { formatWager } from '@/lib/format.ts';
import { useAcceptInvite } from '../api/accept-invite.ts';
import { useInvite } from '../api/get-invite.ts';

type Props = {
  code: string;
  user: User | null;
  /** Runs after a successful accept: the page refreshes other features' data and moves on. */
  onAccepted: (result: AcceptInviteResponse) => unknown;
};

export function InviteLanding({ code, user, onAccepted }: Props) {
  const { data: invite, isPending, isError, failureReason } = useInvite(code);
  const pendingForVisitor = !user && invite?.status === 'pending';

  useEffect(() => {
    if (pendingForVisitor) goToLogin(paths.invite(code));
  }, [pendingForVisitor, code]);

  if (isPending) return <InviteSkeleton failure={failureReason} />;
  if (isError) {
    return (
      <Notice testId="invite-not-found" title="Invite Not Found">
        This invite link is invalid or has expired
      </Notice>
    );
  }
  if (invite.status !== 'pending') {
    return (
      <Notice testId="invite-used" title="Invite Already Used">
        This invite has already been accepted
      </Notice>
    );
  }
  return <PendingInvite code={code} invite={invite} user={user} onAccepted={onAccepted} />;
}

function PendingInvite({ code, invite, user, onAccepted }: Props & { invite: InviteView }) {
  const inviter = displayName(invite.inviter);
  const accept = useAcceptInvite(code, {
    mutationConfig: {
      onSuccess: async (result) => {
        toast({
          title: 'Invite accepted!',
          description: "You're now friends and the bet is ready",
        });
        await onAccepted(result);
      },
    },
  });
  return (
    <Card className="mx-auto w-full max-w-lg" data-testid="invite-landing">
      <CardHeader className="items-center gap-3 text-center">
        <UserAvatar user={invite.inviter} size="lg" />
        <h1 className="text-2xl font-bold text-slate-900">{inviter} invited you to Wagers</h1>
        <CardDescription>
          Friendly bets between friends. Accept to become friends
          {invite.bet ? ' and take on the bet' : ''}.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {invite.message ? (
          <blockquote
            className="rounded-lg border-l-4 border-indigo-300 bg-indigo-50 p-3 text-sm text-slate-800"
            data-testid="invite-message"
          >
            <Icon name="message" className="mr-1 inline text-indigo-700" />
            {invite.message}
          </blockquote>
        ) : null}
        {invite.bet ? (
          <section
            aria-labelledby="invite-bet-title"
            className="grid gap-2 rounded-lg border border-slate-200 p-4"
            data-testid="invite-bet"
          >
            <h2 id="invite-bet-title" className="font-semibold break-words text-slate-900">
              {invite.bet.title}
            </h2>
            <p className="text-sm break-words whitespace-pre-line text-slate-700">
              {invite.bet.description}
            </p>
            <p className="text-sm">
              <span className="text-slate-600">Wager: </span>
              <span className="font-semibold text-indigo-800">{formatWager(invite.bet)}</span>
            </p>
          </section>
        ) : null}
        {user ? (
          <Button size="lg" disabled={accept.isPending} onClick={() => accept.mutate(code)}>
            <Icon name="check" />
            {accept.isPending ? 'Accepting...' : 'Accept Invite'}
          </Button>
        ) : (
          <ButtonAnchor size="lg" href={paths.login(paths.invite(code))}>
            Sign In to Accept
          </ButtonAnchor>
        )}
      </CardContent>
    </Card>
  );
}

function Notice({
  title,
  children,
  testId,
}: {
  title: string;
  children: ReactNode;
  testId: string;
}) {
  return (
    <MessageCard
      testId={testId}
      title={title}
      action={
        <ButtonLink to={paths.home} variant="outline">
          Go to the home page
        </ButtonLink>
      }
    >
      {children}
    </MessageCard>
  );
}

function InviteSkeleton({ failure }: { failure: Error | null }) {
  return (
    <LoadingStatus
      label="Loading invite"
      failure={failure}
      className="mx-auto grid w-full max-w-lg justify-items-center gap-4 pt-8"
    >
      <Skeleton className="size-16 rounded-full" />
      <Skeleton className="h-7 w-64" />
      <Skeleton className="h-32 w-full" />
      <Skeleton className="h-11 w-full" />
    </LoadingStatus>
  );
}
