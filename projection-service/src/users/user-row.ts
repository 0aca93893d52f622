import type { User } from '@wagers/contracts/api/user';
import {
  isoTimestampSql,
  jsonObjectSql,
  jsonPlainStringSql,
  jsonValueSql,
} from '@wagers/platform/http/json-text';

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

/**
 * SQL for the JSON text of `toUser` (email shown) of the users row `u`, built by PostgreSQL.
 */
export function userJsonSql(u: string): string {
  return jsonObjectSql(
    [
      ['id', jsonPlainStringSql(`${u}.id`)],
      ['firstName', jsonValueSql(`${u}.first_name`)],
      ['lastName', jsonValueSql(`${u}.last_name`)],
      ['email', jsonValueSql(`${u}.email`)],
      ['profileImageUrl', jsonValueSql(`${u}.profile_image_url`)],
      ['createdAt', jsonPlainStringSql(isoTimestampSql(`${u}.created_at`))],
    ],
    `CASE WHEN ${u}.deleted_at IS NULL THEN '' ELSE ',"deleted":true' END`,
  );
}

const JSON_NULL = "'null'";

/**
 * SQL for the JSON text of the user with id `id` (SQL) that the users read model has no row for
 * yet: the id, everything else unknown, created `since` (a timestamptz).
 */
export function unknownUserJsonSql(id: string, since: string): string {
  return jsonObjectSql([
    ['id', jsonPlainStringSql(id)],
    ['firstName', JSON_NULL],
    ['lastName', JSON_NULL],
    ['email', JSON_NULL],
    ['profileImageUrl', JSON_NULL],
    ['createdAt', jsonPlainStringSql(isoTimestampSql(since))],
  ]);
}
