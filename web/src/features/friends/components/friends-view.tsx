import { useState } from 'react';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { useFriendRequests } from '../api/get-friend-requests.ts';
import { useFriends } from '../api/get-friends.ts';
import { splitRequests } from '../utils/split-requests.ts';
import { FindFriends } from './find-friends.tsx';
import { FriendList } from './friend-list.tsx';
import { FriendRequests } from './friend-requests.tsx';
import { InviteFriendForm } from './invite-friend-form.tsx';

type FriendsTab = 'friends' | 'requests' | 'find' | 'invite';

/** The friends screen. `onFriendshipChange` lets the page refresh data other features own (stats). */
export function FriendsView({
  userId,
  onFriendshipChange,
}: {
  userId: string;
  onFriendshipChange?: () => unknown;
}) {
  const [tab, setTab] = useState<FriendsTab>('friends');
  const friends = useFriends();
  const requests = useFriendRequests();
  const incomingCount = requests.data ? splitRequests(requests.data, userId).incoming.length : 0;

  return (
    <Tabs value={tab} onValueChange={(value) => setTab(value as FriendsTab)}>
      <TabsList aria-label="Friends sections">
        <TabsTrigger value="friends" data-testid="tab-friends">
          My Friends ({friends.data?.length ?? 0})
        </TabsTrigger>
        <TabsTrigger value="requests" data-testid="tab-requests">
          {incomingCount > 0 ? `Requests (${incomingCount})` : 'Requests'}
        </TabsTrigger>
        <TabsTrigger value="find" data-testid="tab-find">
          Find Friends
        </TabsTrigger>
        <TabsTrigger value="invite" data-testid="tab-invite">
          Invite Friends
        </TabsTrigger>
      </TabsList>
      <TabsContent value="friends">
        <FriendList onFindFriends={() => setTab('find')} />
      </TabsContent>
      <TabsContent value="requests">
        <FriendRequests userId={userId} onFriendshipChange={onFriendshipChange} />
      </TabsContent>
      <TabsContent value="find">
        <FindFriends />
      </TabsContent>
      <TabsContent value="invite">
        <InviteFriendForm />
      </TabsContent>
    </Tabs>
  );
}
