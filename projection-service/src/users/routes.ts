import { Router } from 'express';
import { currentUserId, requireUser } from '@wagers/platform/auth/sessions';
import { unauthorized } from '@wagers/platform/errors';
import { isAuditor } from '../audit/auditors.ts';
import { readYourWrites } from '../consistency.ts';
import type { QueryServiceDeps } from '../deps.ts';
import { toUser, userColumns, type UserRow } from './user-row.ts';

export function usersQueryRouter(deps: QueryServiceDeps): Router {
  const router = Router();
  router.get(
    '/api/auth/user',
    requireUser,
    readYourWrites(deps, ['users', 'audit']),
    async (req, res) => {
      const result = await deps.pool.query<UserRow>(
        `SELECT ${userColumns} FROM rm_users WHERE id = $1`,
        [currentUserId(req)],
      );
      const row = result.rows[0];
      if (!row) throw unauthorized();
      res.json({ ...toUser(row), isAuditor: await isAuditor(deps.pool, row.id) });
    },
  );
  return router;
}
