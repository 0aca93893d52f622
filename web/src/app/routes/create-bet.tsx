import { useSearchParams } from 'react-router-dom';
import { PageLoading } from '@/components/feedback/page-loading.tsx';
import { CreateBetWizard } from '@/features/bets/components/create-bet/create-bet-wizard.tsx';
import { useFriends } from '@/features/friends/api/get-friends.ts';
import { useUser } from '@/lib/auth.ts';

/** Open to everyone: a visitor builds the bet, then signs in to send it. */
export function CreateBetRoute() {
  const { user, isLoading } = useUser();
  const [params] = useSearchParams();
  const friends = useFriends({ enabled: user !== null });
  // The wizard decides its opening state once, so it waits until we know who is here.
  if (isLoading) return <PageLoading />;
  return (
    <CreateBetWizard
      user={user}
      friends={{
        data: friends.data,
        loading: user !== null && friends.isPending,
        error: friends.error,
        failure: friends.failureReason,
      }}
      opponentId={params.get('opponentId')}
    />
  );
}
