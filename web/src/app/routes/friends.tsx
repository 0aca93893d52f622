import { getStatsQueryOptions } from '@/features/bets/api/get-stats.ts';
import { FriendsView } from '@/features/friends/components/friends-view.tsx';
import { useUser } from '@/lib/auth.ts';
import { useInvalidate } from '@/lib/react-query.ts';

export function FriendsRoute() {
  const { user } = useUser();
  const invalidate = useInvalidate();
  if (!user) return null;
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Friends</h1>
        <p className="text-slate-700">Bet only with people you trust.</p>
      </div>
      <FriendsView
        userId={user.id}
        onFriendshipChange={() => invalidate(getStatsQueryOptions().queryKey)}
      />
    </div>
  );
}
