import { Router } from 'express';
import {
  notificationKinds,
  type NotificationKind,
  type NotificationPreferences,
} from '@wagers/contracts/api/notifications';
import { currentUserId, requireUser } from '@wagers/platform/auth/sessions';
import { readYourWrites } from '../consistency.ts';
import type { QueryServiceDeps } from '../deps.ts';

/** GET /api/notification-preferences: every kind, emailed unless switched off, texted if switched on. */
export function notificationPreferencesQueryRouter(deps: QueryServiceDeps): Router {
  const router = Router();
  router.get(
    '/api/notification-preferences',
    requireUser,
    readYourWrites(deps, ['notification-preferences']),
    async (req, res) => {
      const result = await deps.pool.query<{
        kind: NotificationKind;
        email: boolean;
        sms: boolean;
      }>('SELECT kind, email, sms FROM rm_notification_preferences WHERE user_id = $1', [
        currentUserId(req),
      ]);
      const chosen = new Map(result.rows.map((row) => [row.kind, row]));
      const preferences: NotificationPreferences = notificationKinds.map((kind) => ({
        kind,
        email: chosen.get(kind)?.email ?? true,
        sms: chosen.get(kind)?.sms ?? false,
      }));
      res.json(preferences);
    },
  );
  return router;
}
