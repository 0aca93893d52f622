import type { ReactNode } from 'react';
import { displayName } from '@wagers/contracts/api/display';
import type { User } from '@wagers/contracts/api/user';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { UserAvatar } from '@/components/user-avatar.tsx';
import { LoadingStatus } from '@/components/feedback/loading-status.tsx';

type Person = Pick<User, 'firstName' | 'lastName' | 'email' | 'profileImageUrl'>;

/** A person in a list: avatar, name, email when known, a detail line, and the actions that apply. */
export function PersonRow({
  person,
  actions,
  detail,
  testId,
}: {
  person: Person;
  actions?: ReactNode;
  detail?: ReactNode;
  testId?: string;
}) {
  return (
    <li
      data-testid={testId}
      className="flex flex-wrap items-center gap-3 rounded-xl border border-slate-200 bg-white p-3 shadow-sm sm:flex-nowrap sm:p-4"
    >
      <UserAvatar user={person} />
      <div className="min-w-0 flex-1">
        <p className="truncate font-medium text-slate-900">{displayName(person)}</p>
        {person.email ? <p className="truncate text-sm text-slate-600">{person.email}</p> : null}
        {detail}
      </div>
      {actions ? <div className="ml-auto flex shrink-0 items-center gap-2">{actions}</div> : null}
    </li>
  );
}

/** `failure` is the list query's `failureReason`, for the loading state to say why it waits. */
export function PersonListSkeleton({ count, failure }: { count: number; failure: Error | null }) {
  return (
    <LoadingStatus label="Loading" failure={failure} className="grid gap-2" testId="list-loading">
      {Array.from({ length: count }, (_, index) => (
        <div
          key={index}
          className="flex items-center gap-3 rounded-xl border border-slate-200 bg-white p-4"
        >
          <Skeleton className="size-10 rounded-full" />
          <div className="grid flex-1 gap-2">
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-3 w-1/2" />
          </div>
        </div>
      ))}
    </LoadingStatus>
  );
}
