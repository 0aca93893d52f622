import { Router } from 'express';
import { z } from 'zod';
import type { UserSearchResult } from '@wagers/contracts/api/friends';
import { currentUserId, requireUser } from '@wagers/platform/auth/sessions';
import { parseInput } from '@wagers/platform/http/validate';
import { rateLimits } from '@wagers/platform/limits/rate-limits';
import { readYourWrites } from '../consistency.ts';
import type { QueryServiceDeps } from '../deps.ts';
import { toUser, type UserRow } from '../users/user-row.ts';
import { searchUsersQuery } from './search-query.ts';

const searchParamsSchema = z.object({
  query: z
    .string({ error: 'Type an email or a name to search for' })
    .trim()
    .min(1, 'Type an email or a name to search for')
    .max(254, 'Search text is too long'),
});

type SearchRow = UserRow & {
  exact_email: boolean;
  is_friend: boolean;
  request_sent: boolean;
  request_received: boolean;
};

/**
 * GET /api/users/search?query=: people by name, friends by a prefix of their email, anyone by
 * their whole email; the email shown only to friends or on an exact match. Throttled per person.
 */
export function searchQueryRouter(deps: QueryServiceDeps): Router {
  const router = Router();
  const limits = rateLimits(deps.pool, () => new Date());
  router.get(
    '/api/users/search',
    requireUser,
    readYourWrites(deps, ['users', 'friends']),
    async (req, res) => {
      const { query } = parseInput(searchParamsSchema, { query: req.query.query });
      await limits.consume({ rule: 'searches-per-user', key: currentUserId(req) });
      const result = await deps.pool.query<SearchRow>(searchUsersQuery(currentUserId(req), query));
      const users: UserSearchResult[] = result.rows.map((row) => ({
        ...toUser(row, { showEmail: row.is_friend || row.exact_email }),
        relationship: row.is_friend
          ? 'friend'
          : row.request_sent
            ? 'request_sent'
            : row.request_received
              ? 'request_received'
              : 'none',
      }));
      res.json(users);
    },
  );
  return router;
}
