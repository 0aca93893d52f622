import type { User } from '@wagers/contracts/api/user';

export interface UserRow {
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  profile_image_url: string | null;
  created_at: Date;
  deleted_at: Date | null;
}

export const userColumns =
  'id, email, first_name, last_name, profile_image_url, created_at, deleted_at';

/** The user object of every response. `showEmail: false` hides the address (search rules). */
export function toUser(row: UserRow, { showEmail = true }: { showEmail?: boolean } = {}): User {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: showEmail ? row.email : null,
    profileImageUrl: row.profile_image_url,
    createdAt: row.created_at.toISOString(),
    ...(row.deleted_at ? { deleted: true as const } : {}),
  };
}
