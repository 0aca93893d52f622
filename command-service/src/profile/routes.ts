import { Router } from 'express';
import {
  deleteAccountRequestSchema,
  setPhoneRequestSchema,
  updateProfileRequestSchema,
  type AccountDeletedResponse,
  type PhoneSettings,
} from '@wagers/contracts/api/profile';
import { currentUserId, requireUser, sessionToken } from '@wagers/platform/auth/sessions';
import { handle } from '@wagers/platform/aggregate';
import { notFound } from '@wagers/platform/errors';
import { parseInput } from '@wagers/platform/http/validate';
import { commandContext, recordWrite } from '../context.ts';
import type { CommandServiceDeps } from '../deps.ts';
import { loadUser, loadUserView } from '../users/load-user.ts';
import { userAggregate, type UserState } from '@wagers/domain/users/user';

/** What the profile page shows of the user's own number: nobody else ever sees it. */
function phoneSettings(state: UserState): PhoneSettings {
  if (state.status !== 'registered') throw notFound('No such user');
  const { phone, smsConsent, consentedAt } = state;
  return { phone, smsConsent, consentedAt };
}

/**
 * PUT /api/user: the signed-in user's own first and last name; answers with the user.
 * GET and PUT /api/user/phone: their mobile number and SMS consent, from the user's stream.
 * DELETE /api/user: deletes the signed-in user's account, confirmed by its email address typed
 * again, and signs it out on every device; the erasure process manager does the rest (decision
 * 0018).
 */
export function profileRouter(deps: CommandServiceDeps): Router {
  const router = Router();
  router.put('/api/user', requireUser, async (req, res) => {
    const { firstName, lastName } = parseInput(updateProfileRequestSchema, req.body);
    const userId = currentUserId(req);
    const result = await handle(
      deps.store,
      userAggregate,
      userId,
      { type: 'UpdateProfile', data: { userId, firstName, lastName } },
      commandContext(req, deps.runtime),
    );
    await recordWrite(deps.sessions, req, res, result.position);
    res.json(await loadUserView(deps.store, userId));
  });

  router.get('/api/user/phone', requireUser, async (req, res) => {
    res.json(phoneSettings(await loadUser(deps.store, currentUserId(req))));
  });

  router.put('/api/user/phone', requireUser, async (req, res) => {
    const { phone, smsConsent } = parseInput(setPhoneRequestSchema, req.body);
    const userId = currentUserId(req);
    const context = commandContext(req, deps.runtime);
    const result = await handle(
      deps.store,
      userAggregate,
      userId,
      { type: 'SetPhone', data: { userId, phone, smsConsent, at: context.now.toISOString() } },
      context,
    );
    await recordWrite(deps.sessions, req, res, result.position);
    res.json(phoneSettings(result.state));
  });

  router.delete('/api/user', requireUser, async (req, res) => {
    const { confirmEmail } = parseInput(deleteAccountRequestSchema, req.body);
    const userId = currentUserId(req);
    await handle(
      deps.store,
      userAggregate,
      userId,
      { type: 'DeleteAccount', data: { userId, confirmEmail } },
      commandContext(req, deps.runtime),
    );
    // The account is deleted once AccountDeleted is appended; its pictures go with the erasure
    // (pm-account-erasure), which retries until storage answers.
    await deps.sessions.destroy(sessionToken(req.headers.cookie), res);
    // Signed out on every other device too, before answering: the erasure does it again later,
    // but until then another session could still accept a bet or send a friend request.
    await deps.sessions.endUser(userId);
    res.json({ status: 'deleted' } satisfies AccountDeletedResponse);
  });
  return router;
}
