import type { User } from '@wagers/contracts/api/user';
import { displayName } from '@wagers/contracts/api/display';
import { Link } from 'react-router-dom';
import { ErrorMessage } from '@/components/feedback/error-message.tsx';
import { InviteeFields } from '@/components/invitee-fields.tsx';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { UserAvatar } from '@/components/user-avatar.tsx';
import { LoadingStatus } from '@/components/feedback/loading-status.tsx';
import { paths } from '@/config/paths.ts';
import type { BetDraft } from '../../utils/bet-draft.ts';

/** The signed-in person's friends as their query stands: loaded, loading, or failed. */
export type FriendsList = {
  data: readonly User[] | undefined;
  loading: boolean;
  error: Error | null;
  /** Why it is still loading, when a try failed and it is to be asked again (`failureReason`). */
  failure: Error | null;
};

type Props = {
  draft: BetDraft;
  update: (patch: Partial<BetDraft>) => void;
  isAuthenticated: boolean;
  friends: FriendsList;
};

export function StepOpponent({ draft, update, isAuthenticated, friends }: Props) {
  const invitee = <InviteeStep draft={draft} update={update} />;
  if (!isAuthenticated) {
    return (
      <div className="grid gap-4">
        <div className="rounded-lg border border-indigo-200 bg-indigo-50 p-4 text-sm text-indigo-950">
          <p className="font-semibold">Build your bet, sign up to send</p>
          <p className="mt-1">
            Enter who you want to bet with and the details. You will create your account after
            entering the bet details.
          </p>
        </div>
        {invitee}
      </div>
    );
  }
  return (
    <Tabs
      value={draft.isInviteMode ? 'invite' : 'friend'}
      onValueChange={(value) => update({ isInviteMode: value === 'invite' })}
    >
      <TabsList aria-label="Who to bet with">
        <TabsTrigger value="friend">Select Friend</TabsTrigger>
        <TabsTrigger value="invite">Invite New User</TabsTrigger>
      </TabsList>
      <TabsContent value="friend">
        <FriendPicker draft={draft} update={update} friends={friends} />
      </TabsContent>
      <TabsContent value="invite">{invitee}</TabsContent>
    </Tabs>
  );
}

function InviteeStep({ draft, update }: Pick<Props, 'draft' | 'update'>) {
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-2 text-sm text-slate-700">
        Invite someone new by email or text message. They join Wagers from the link and can accept
        your bet.
      </legend>
      <InviteeFields
        idPrefix="bet-invitee"
        value={{
          email: draft.inviteeEmail,
          phone: draft.inviteePhone,
          smsConsent: draft.smsConsent,
        }}
        onChange={(next) =>
          update({
            inviteeEmail: next.email,
            inviteePhone: next.phone,
            smsConsent: next.smsConsent,
          })
        }
      />
    </fieldset>
  );
}

function FriendPicker({
  draft,
  update,
  friends: { data: friends, loading, error, failure },
}: Pick<Props, 'draft' | 'update' | 'friends'>) {
  if (loading) {
    return (
      <LoadingStatus label="Loading friends" failure={failure} className="grid gap-2">
        {[0, 1, 2].map((index) => (
          <Skeleton key={index} className="h-16 w-full" />
        ))}
      </LoadingStatus>
    );
  }
  // A list that could not load is not an empty one: nobody is told they have no friends.
  if (!friends && error) return <ErrorMessage what="your friends" error={error} />;
  if (!friends || friends.length === 0) {
    return (
      <div
        className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-700"
        data-testid="no-friends"
      >
        <p>You don&apos;t have any friends on Wagers yet.</p>
        <p className="mt-2">
          <Link
            to={paths.friends}
            className="font-medium text-indigo-800 underline underline-offset-4"
          >
            Find or invite friends
          </Link>{' '}
          or switch to Invite New User.
        </p>
      </div>
    );
  }
  return (
    <RadioGroup
      aria-label="Choose a friend"
      value={draft.selectedFriendId}
      onValueChange={(value) => update({ selectedFriendId: value })}
    >
      {friends.map((friend) => (
        <label
          key={friend.id}
          htmlFor={`friend-${friend.id}`}
          data-testid="friend-option"
          className="flex cursor-pointer items-center gap-3 rounded-lg border border-slate-200 bg-white p-3 has-[[data-state=checked]]:border-indigo-700 has-[[data-state=checked]]:bg-indigo-50"
        >
          <RadioGroupItem id={`friend-${friend.id}`} value={friend.id} />
          <UserAvatar user={friend} />
          <span className="min-w-0">
            <span className="block truncate font-medium text-slate-900">{displayName(friend)}</span>
            {friend.email ? (
              <span className="block truncate text-sm text-slate-600">{friend.email}</span>
            ) : null}
          </span>
        </label>
      ))}
    </RadioGroup>
  );
}
