import { ErrorMessage } from '@/components/feedback/error-message.tsx';
import type { ReactNode } from 'react';
import type { FriendRequest } from '@wagers/contracts/api/friends';
import { displayName } from '@wagers/contracts/api/display';
import { EmptyState } from '@/components/feedback/empty-state.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Icon } from '@/components/ui/icons.tsx';
import { toast } from '@/components/ui/toast/use-toast.ts';
import { useAcceptFriendRequest } from '../api/accept-friend-request.ts';
import { useDeclineFriendRequest } from '../api/decline-friend-request.ts';
import { useFriendRequests } from '../api/get-friend-requests.ts';
import { splitRequests } from '../utils/split-requests.ts';
import { PersonListSkeleton, PersonRow } from './person-row.tsx';

export function FriendRequests({
  userId,
  onFriendshipChange,
}: {
  userId: string;
  onFriendshipChange?: () => unknown;
}) {
  const { data: requests, isPending, isError, error, failureReason } = useFriendRequests();
  if (isPending) return <PersonListSkeleton count={3} failure={failureReason} />;
  if (isError) return <ErrorMessage what="friend requests" error={error} />;

  const { incoming, sent } = splitRequests(requests, userId);
  if (incoming.length === 0 && sent.length === 0) {
    return (
      <EmptyState
        testId="requests-empty"
        icon={<Icon name="userPlus" className="size-6" />}
        title="No pending requests"
      />
    );
  }
  return (
    <div className="grid gap-6">
      {incoming.length > 0 ? (
        <RequestSection id="incoming" title="Incoming Requests">
          {incoming.map((request) => (
            <IncomingRequest
              key={request.id}
              request={request}
              onFriendshipChange={onFriendshipChange}
            />
          ))}
        </RequestSection>
      ) : null}
      {sent.length > 0 ? (
        <RequestSection id="sent" title="Sent Requests">
          {sent.map((request) => (
            <PersonRow
              key={request.id}
              person={request.receiver}
              testId="sent-request"
              actions={<Badge variant="warning">Pending</Badge>}
            />
          ))}
        </RequestSection>
      ) : null}
    </div>
  );
}

function RequestSection({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-2">
      <h2 id={`${id}-title`} className="font-semibold text-slate-900">
        {title}
      </h2>
      <ul className="grid gap-2">{children}</ul>
    </section>
  );
}

function IncomingRequest({
  request,
  onFriendshipChange,
}: {
  request: FriendRequest;
  onFriendshipChange?: () => unknown;
}) {
  const name = displayName(request.sender);
  const accept = useAcceptFriendRequest({
    mutationConfig: {
      onSuccess: async () => {
        toast({
          title: 'Friend request accepted',
          description: `You are now friends with ${request.sender.firstName ?? name}`,
        });
        await onFriendshipChange?.();
      },
    },
  });
  const decline = useDeclineFriendRequest({
    mutationConfig: { onSuccess: () => void toast({ title: 'Friend request declined' }) },
  });
  const busy = accept.isPending || decline.isPending;
  return (
    <PersonRow
      person={request.sender}
      testId="incoming-request"
      actions={
        <>
          <Button
            size="sm"
            disabled={busy}
            onClick={() => accept.mutate(request.id)}
            aria-label={`Accept ${name}`}
          >
            <Icon name="check" />
            Accept
          </Button>
          <Button
            size="sm"
            variant="outline"
            disabled={busy}
            onClick={() => decline.mutate(request.id)}
            aria-label={`Decline ${name}`}
          >
            <Icon name="x" />
            Decline
          </Button>
        </>
      }
    />
  );
}
