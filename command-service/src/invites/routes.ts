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
import { INVITE_LINK_KEY, inviteLinks } from '@wagers/domain/invites/links';
import { signingKey } from '@wagers/platform/signing-keys';

export function invitesRouter(deps: CommandServiceDeps): Router {
  const router = Router();
  const limits = inviteLimits(deps);
  const keys = inviteKeys(deps.pool, deps.runtime.now);
  const links = inviteLinks(signingKey(deps.pool, INVITE_LINK_KEY), deps.publicUrl);

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
      links,
      keyed,
      // Counted once per code: a key reused after it expired draws a new code, a new invite.
      () =>
        limits.beforeInvite(
          inviterId,
          parseInvitee(input),
          keyed && { kind: 'invite', id: keyed.code },
        ),
    );
    await recordWrite(deps.sessions, req, res, sent.position);
    res.status(201).json({ code: sent.code, inviteLink: sent.inviteLink, status: 'pending' });
  });

  router.post('/api/invites/:code/accept', requireUser, async (req, res) => {
    const link = await links.read(String(req.params.code));
    if (!link) throw notFound('Invite not found');
    const accepted = await acceptInvite(
      deps.store,
      link,
      currentUserId(req),
      commandContext(req, deps.runtime),
    );
    await recordWrite(deps.sessions, req, res, accepted.position);
    res.json({ friendId: accepted.friendId, betId: accepted.betId });
  });

  return router;
}
