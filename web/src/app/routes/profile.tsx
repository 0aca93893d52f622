import { getActivityQueryOptions } from '@/features/bets/api/get-activity.ts';
import { getBetsQueryOptions } from '@/features/bets/api/get-bets.ts';
import { ProfileStats } from '@/features/bets/components/profile-stats.tsx';
import { RecentActivity } from '@/features/bets/components/recent-activity.tsx';
import { getFriendRequestsQueryOptions } from '@/features/friends/api/get-friend-requests.ts';
import { getFriendsQueryOptions } from '@/features/friends/api/get-friends.ts';
import { DeleteAccountCard } from '@/features/profile/components/delete-account-card.tsx';
import { NotificationPreferencesCard } from '@/features/profile/components/notification-preferences-card.tsx';
import { PhoneCard } from '@/features/profile/components/phone-card.tsx';
import { ProfileCard } from '@/features/profile/components/profile-card.tsx';
import { useUser } from '@/lib/auth.ts';
import { useInvalidate } from '@/lib/react-query.ts';

/** Every activity list, whatever its length. */
const activityKey = getActivityQueryOptions().queryKey.slice(0, 1);

export function ProfileRoute() {
  const { user } = useUser();
  const invalidate = useInvalidate();
  if (!user) return null;
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-bold text-slate-900">Profile</h1>
      <ProfileCard
        user={user}
        onProfileChange={() =>
          invalidate(
            getFriendsQueryOptions().queryKey,
            getFriendRequestsQueryOptions().queryKey,
            getBetsQueryOptions().queryKey,
            activityKey,
          )
        }
      />
      <PhoneCard />
      <NotificationPreferencesCard />
      <ProfileStats />
      <RecentActivity />
      <DeleteAccountCard />
    </div>
  );
}
