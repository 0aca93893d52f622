import { useNavigate, useParams } from 'react-router-dom';
import { PageLoading } from '@/components/feedback/page-loading.tsx';
import { paths } from '@/config/paths.ts';
import { getBetsQueryOptions } from '@/features/bets/api/get-bets.ts';
import { getStatsQueryOptions } from '@/features/bets/api/get-stats.ts';
import { getFriendsQueryOptions } from '@/features/friends/api/get-friends.ts';
import { InviteLanding } from '@/features/invites/components/invite-landing.tsx';
import { useUser } from '@/lib/auth.ts';
import { useInvalidate } from '@/lib/react-query.ts';

export function InviteRoute() {
  const { code = '' } = useParams();
  const { user, isLoading } = useUser();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  if (isLoading) return <PageLoading />;
  return (
    <InviteLanding
      code={code}
      user={user}
      onAccepted={async ({ betId }) => {
        await invalidate(
          getFriendsQueryOptions().queryKey,
          getBetsQueryOptions().queryKey,
          getStatsQueryOptions().queryKey,
        );
        await navigate(betId ? paths.bet(betId) : paths.friends);
      }}
    />
  );
}
