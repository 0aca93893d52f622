import { SEARCH_LIMIT } from '@wagers/contracts/api/friends';

/** `text` as a LIKE prefix pattern: its own % and _ match only themselves. */
const prefix = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const isFriend =
  'EXISTS (SELECT 1 FROM rm_friendships f WHERE f.user_id = $1 AND f.friend_id = u.id)';

/**
 * The search as SQL, ties within a name broken by a friend's email (which they see) and then by
 * id, never by a stranger's hidden email. Each condition is `lower(column) LIKE 'prefix%'` (or `=` for a
 * stranger's email), which the text_pattern_ops indexes of migration 1700000002003 answer; two words also try first + last
 * name. The caller is never a result.
 */
export function searchUsersQuery(
  callerId: string,
  query: string,
): { text: string; values: unknown[] } {
  const normalized = query.trim().toLowerCase().replace(/\s+/g, ' ');
  const values: unknown[] = [callerId, normalized, prefix(normalized)];
  const conditions = [
    // A prefix of the email finds friends only: a stranger's address matches only when typed in
    // full, or anyone could spell out a hidden address one character at a time.
    'lower(u.email) = $2',
    `(lower(u.email) LIKE $3 AND ${isFriend})`,
    'lower(u.first_name) LIKE $3',
    'lower(u.last_name) LIKE $3',
  ];
  const words = normalized.split(' ');
  if (words.length === 2) {
    values.push(prefix(words[0]!), prefix(words[1]!));
    conditions.push(
      '(lower(u.first_name) LIKE $4 AND lower(u.last_name) LIKE $5)',
      '(lower(u.first_name) LIKE $5 AND lower(u.last_name) LIKE $4)',
    );
  }
  const text = `
    SELECT u.id, u.email, u.first_name, u.last_name, u.profile_image_url, u.created_at,
           lower(u.email) = $2 AS exact_email,
           ${isFriend} AS is_friend,
           EXISTS (SELECT 1 FROM rm_friend_requests r
                   WHERE r.status = 'pending' AND r.sender_id = $1 AND r.receiver_id = u.id) AS request_sent,
           EXISTS (SELECT 1 FROM rm_friend_requests r
                   WHERE r.status = 'pending' AND r.sender_id = u.id AND r.receiver_id = $1) AS request_received
    FROM rm_users u
    WHERE u.id <> $1 AND (${conditions.join(' OR ')})
    ORDER BY exact_email DESC, lower(coalesce(u.first_name, '')), lower(coalesce(u.last_name, '')),
             CASE WHEN ${isFriend} THEN lower(u.email) END, u.id
    LIMIT ${SEARCH_LIMIT}`;
  return { text, values };
}
