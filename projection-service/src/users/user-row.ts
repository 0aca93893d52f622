import type { User } from '@wagers/contracts/api/user';
import { isoTimestampSql } from '@wagers/platform/http/json-text';

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

/** The `toUser` fields of a users row (alias `u`), in its order, as SQL select items. */
const userJsonFields = (u: string) =>
  `${u}.id, ${u}.first_name AS "firstName", ${u}.last_name AS "lastName", ${u}.email, ` +
  `${u}.profile_image_url AS "profileImageUrl", ${isoTimestampSql(`${u}.created_at`)} AS "createdAt"`;

/**
 * SQL for the JSON of `toUser` (with the email shown) of the users row joined as `u`, built by
 * PostgreSQL. `id` is the id the caller holds and `since` a timestamptz: when the users read model
 * has no row for that id yet, the user is that id with everything else unknown, created `since`;
 * when `id` is null, so is the user.
 */
export function userJsonSql(u: string, id: string, since: string): string {
  const json = (fields: string) => `(SELECT row_to_json(j) FROM (SELECT ${fields}) j)`;
  return `CASE WHEN ${id} IS NULL THEN NULL
    WHEN ${u}.id IS NULL THEN ${json(
      `${id} AS id, NULL::text AS "firstName", NULL::text AS "lastName", NULL::text AS email, ` +
        `NULL::text AS "profileImageUrl", ${isoTimestampSql(since)} AS "createdAt"`,
    )}
    WHEN ${u}.deleted_at IS NULL THEN ${json(userJsonFields(u))}
    ELSE ${json(`${userJsonFields(u)}, true AS deleted`)} END`;
}
