import { ErrorMessage } from '@/components/feedback/error-message.tsx';
import { EmptyState } from '@/components/feedback/empty-state.tsx';
import { Button, ButtonLink } from '@/components/ui/button.tsx';
import { Icon } from '@/components/ui/icons.tsx';
import { paths } from '@/config/paths.ts';
import { displayName } from '@wagers/contracts/api/display';
import { noRecord } from '@wagers/contracts/api/head-to-head';
import { useHeadToHeads } from '@/features/bets/api/get-head-to-heads.ts';
import { HeadToHeadLine } from '@/features/bets/components/head-to-head-record.tsx';
import { useFriends } from '../api/get-friends.ts';
import { PersonListSkeleton, PersonRow } from './person-row.tsx';

export function FriendList({ onFindFriends }: { onFindFriends: () => void }) {
  const { data: friends, isPending, isError, error, failureReason } = useFriends();
  const { data: records } = useHeadToHeads();
  if (isPending) return <PersonListSkeleton count={3} failure={failureReason} />;
  if (isError) return <ErrorMessage what="your friends" error={error} />;
  if (friends.length === 0) {
    return (
      <EmptyState
        testId="friends-empty"
        icon={<Icon name="users" className="size-6" />}
        title="No friends yet"
        description="Find people you know on Wagers and send them a friend request."
        action={
          <Button onClick={onFindFriends}>
            <Icon name="search" />
            Search for Friends
          </Button>
        }
      />
    );
  }
  return (
    <ul className="grid gap-2" aria-label="Friends">
      {friends.map((friend) => (
        <PersonRow
          key={friend.id}
          person={friend}
          testId="friend-card"
          detail={
            <HeadToHeadLine
              record={
                records
                  ? (records.find((record) => record.friendId === friend.id) ?? noRecord(friend.id))
                  : null
              }
            />
          }
          actions={
            <ButtonLink
              to={paths.createBetWith(friend.id)}
              size="sm"
              aria-label={`New bet with ${displayName(friend)}`}
            >
              <Icon name="plus" />
              New Bet
            </ButtonLink>
          }
        />
      ))}
    </ul>
  );
}
