/** How a person is named and drawn (spec section 3); no zod, so any page can use it cheaply. */
interface NamedUser {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  /** The person deleted their account. */
  deleted?: boolean;
}

/** What a deleted account is called wherever its person used to be. */
export const DELETED_USER_NAME = 'Deleted user';

/**
 * "Deleted user" for a deleted account; else first and last name; else first name; else the part
 * of the email before the at sign; else "Unknown User".
 */
export function displayName(user: NamedUser | null | undefined): string {
  if (user?.deleted) return DELETED_USER_NAME;
  const first = user?.firstName?.trim();
  const last = user?.lastName?.trim();
  if (first && last) return `${first} ${last}`;
  if (first) return first;
  const local = user?.email?.split('@')[0];
  if (local) return local;
  return 'Unknown User';
}

/** First letters of first and last name; else first name initial; else email initial; else "?". */
export function initials(user: NamedUser | null | undefined): string {
  const first = user?.firstName?.trim();
  const last = user?.lastName?.trim();
  if (first && last) return `${first[0]}${last[0]}`.toUpperCase();
  if (first) return first[0]!.toUpperCase();
  const email = user?.email?.trim();
  if (email) return email[0]!.toUpperCase();
  return '?';
}
