import { displayName, initials } from '@wagers/contracts/api/display';
import type { User } from '@wagers/contracts/api/user';
import { Avatar, type AvatarSize } from './ui/avatar.tsx';

type Person = Pick<User, 'firstName' | 'lastName' | 'email' | 'profileImageUrl'>;

/** A person's picture or initials. Pass `labelled` where no visible name sits beside it. */
export function UserAvatar({
  user,
  size,
  labelled = false,
  className,
}: {
  user: Person | null | undefined;
  size?: AvatarSize;
  labelled?: boolean;
  className?: string;
}) {
  return (
    <Avatar
      src={user?.profileImageUrl}
      fallback={initials(user)}
      alt={labelled ? displayName(user) : undefined}
      size={size}
      className={className}
    />
  );
}
