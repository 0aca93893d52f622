import { Router } from 'express';
import type { PhoneSettings } from '@wagers/contracts/api/profile';
import { setPhoneRequestSchema, updateProfileRequestSchema } from '@wagers/contracts/api/profile';
import { currentUserId, requireUser } from '@wagers/platform/auth/sessions';
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
  return router;
}
