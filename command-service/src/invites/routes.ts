import { Router } from 'express';
import { createInviteRequestSchema } from '@wagers/contracts/api/invites';
import { currentUserId, requireUser } from '@wagers/platform/auth/sessions';
import { notFound } from '@wagers/platform/errors';
import { parseInput } from '@wagers/platform/http/validate';
import { commandContext, recordWrite } from '../context.ts';
import type { CommandServiceDeps } from '../deps.ts';
import { parseIdempotencyKey, requestHash } from '../bets/idempotency.ts';
import { inviteLimits } from '../limits/invite-limits.ts';
import { inviteKeys } from './invite-keys.ts';
import { acceptInvite } from './accept-invite.ts';
import { parseInvitee } from '@wagers/domain/invites/invitee';
import { sendInvite } from './send-invite.ts';

/** A code as newInviteCode makes them; anything else cannot name an invite. */
const codePattern = /^[\w-]{16,64}$/;

export function invitesRouter(deps: CommandServiceDeps): Router {
  const router = Router();
  const limits = inviteLimits(deps);
  const keys = inviteKeys(deps.pool, deps.runtime.now);

  router.post('/api/invites', requireUser, async (req, res) => {
    const input = parseInput(createInviteRequestSchema, req.body);
    const key = parseIdempotencyKey(req.header('idempotency-key'));
    const inviterId = currentUserId(req);
    const keyed = key
      ? { code: await keys.codeFor(inviterId, key), requestHash: requestHash(input) }
      : null;
    const sent = await sendInvite(
      deps.store,
      { ...input, inviterId },
      commandContext(req, deps.runtime),
      deps.publicUrl(),
      keyed,
      () => limits.beforeInvite(inviterId, parseInvitee(input), key),
    );
    await recordWrite(deps.sessions, req, res, sent.position);
    res.status(201).json({ code: sent.code, inviteLink: sent.inviteLink, status: 'pending' });
  });

  router.post('/api/invites/:code/accept', requireUser, async (req, res) => {
    const code = String(req.params.code);
    if (!codePattern.test(code)) throw notFound('Invite not found');
    const accepted = await acceptInvite(
      deps.store,
      code,
      currentUserId(req),
      commandContext(req, deps.runtime),
    );
    await recordWrite(deps.sessions, req, res, accepted.position);
    res.json({ friendId: accepted.friendId, betId: accepted.betId });
  });

  return router;
}
