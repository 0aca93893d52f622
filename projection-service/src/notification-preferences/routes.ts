import { Router } from 'express';
import {
  notificationKinds,
  type NotificationKind,
  type NotificationPreferences,
} from '@wagers/contracts/api/notifications';
import { currentUserId, requireUser } from '@wagers/platform/auth/sessions';
import { readYourWrites } from '../consistency.ts';
import type { QueryServiceDeps } from '../deps.ts';

/** GET /api/notification-preferences: every kind, emailed unless switched off. */
export function notificationPreferencesQueryRouter(deps: QueryServiceDeps): Router {
  const router = Router();
  router.get(
    '/api/notification-preferences',
    requireUser,
    readYourWrites(deps, ['notification-preferences']),
    async (req, res) => {
      const result = await deps.pool.query<{ kind: NotificationKind; email: boolean }>(
        'SELECT kind, email FROM rm_notification_preferences WHERE user_id = $1',
        [currentUserId(req)],
      );
      const chosen = new Map(result.rows.map((row) => [row.kind, row.email]));
      const preferences: NotificationPreferences = notificationKinds.map((kind) => ({
        kind,
        email: chosen.get(kind) ?? true,
      }));
      res.json(preferences);
    },
  );
  return router;
}
