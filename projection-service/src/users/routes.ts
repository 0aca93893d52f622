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
      // Said only to auditors, so everyone else's answer stays as it was.
      const auditor = await isAuditor(deps.pool, row.id);
      res.json(auditor ? { ...toUser(row), isAuditor: true } : toUser(row));
    },
  );
  return router;
}
