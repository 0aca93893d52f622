import express, { Router, type Request, type Response } from 'express';
import {
  notificationKindLabels,
  notificationPreferenceRequestSchema,
} from '@wagers/contracts/api/notifications';
import {
  preferencesAggregate,
  type PreferencesCommand,
} from '@wagers/domain/notifications/preferences';
import { readUnsubscribeToken } from '@wagers/domain/notifications/unsubscribe-token';
import { handle } from '@wagers/platform/aggregate';
import { currentUserId, requireUser } from '@wagers/platform/auth/sessions';
import { escapeHtml } from '@wagers/platform/html';
import { parseInput } from '@wagers/platform/http/validate';
import { commandContext, recordWrite } from '../context.ts';
import type { CommandServiceDeps } from '../deps.ts';
import { unsubscribePage } from './unsubscribe-page.ts';

/**
 * PUT /api/notification-preferences (the profile page's email and SMS switches) and the unsubscribe link of
 * every notification email, which works signed out: GET shows a confirm button, POST (the button,
 * or a mail client's one-click RFC 8058 request) switches that kind of email off.
 */
export function notificationsRouter(deps: CommandServiceDeps): Router {
  const router = Router();
  const secret = deps.config.NOTIFICATION_SIGNING_SECRET;

  router.put('/api/notification-preferences', requireUser, async (req, res) => {
    const { kind, email, sms } = parseInput(notificationPreferenceRequestSchema, req.body);
    const userId = currentUserId(req);
    // The schema lets through exactly one of the two channels.
    const command: PreferencesCommand =
      sms === undefined
        ? {
            type: 'SetEmailNotifications',
            data: { userId, kind, email: email === true, via: 'profile' },
          }
        : { type: 'SetSmsNotifications', data: { userId, kind, sms, via: 'profile' } };
    const result = await handle(
      deps.store,
      preferencesAggregate,
      userId,
      command,
      commandContext(req, deps.runtime),
    );
    await recordWrite(deps.sessions, req, res, result.position);
    res.json(sms === undefined ? { kind, email } : { kind, sms });
  });

  const tokenOf = (req: Request, res: Response) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const named = readUnsubscribeToken(secret, token);
    if (!named) {
      res
        .status(404)
        .type('html')
        .send(unsubscribePage('Link not valid', '<p>This unsubscribe link is not valid.</p>'));
    }
    return named;
  };

  router.get('/api/notifications/unsubscribe', (req, res) => {
    const named = tokenOf(req, res);
    if (!named) return;
    const what = escapeHtml(notificationKindLabels[named.kind].toLowerCase());
    res.type('html').send(
      unsubscribePage(
        'Unsubscribe',
        `<p>Stop emails when: ${what}?</p>
<form method="post"><button type="submit" name="List-Unsubscribe" value="One-Click">Unsubscribe</button></form>`,
      ),
    );
  });

  router.post(
    '/api/notifications/unsubscribe',
    express.urlencoded({ extended: false, limit: '1kb' }),
    async (req, res) => {
      const named = tokenOf(req, res);
      if (!named) return;
      await handle(
        deps.store,
        preferencesAggregate,
        named.userId,
        {
          type: 'SetEmailNotifications',
          data: { ...named, email: false, via: 'unsubscribe_link' },
        },
        { ...commandContext(req, deps.runtime), actorId: named.userId },
      );
      const what = escapeHtml(notificationKindLabels[named.kind].toLowerCase());
      res
        .type('html')
        .send(
          unsubscribePage(
            'Unsubscribed',
            `<p>You will no longer get emails when: ${what}. Change this any time on your profile.</p>`,
          ),
        );
    },
  );
  return router;
}
