import { Router } from 'express';
import { createBetRequestSchema, resolveBetRequestSchema } from '@wagers/contracts/api/bets';
import { currentUserId, requireUser } from '@wagers/platform/auth/sessions';
import { parseInput } from '@wagers/platform/http/validate';
import type { Request, Response } from 'express';
import { commandContext, recordWrite } from '../context.ts';
import type { CommandServiceDeps } from '../deps.ts';
import type { BetCommand } from '@wagers/domain/bets/commands';
import { parseInvitee } from '@wagers/domain/invites/invitee';
import { idempotencyKeys } from '../idempotency-keys.ts';
import { inviteLimits } from '../limits/invite-limits.ts';
import { betIdForKey, parseIdempotencyKey } from './idempotency.ts';
import { proposeNewBet } from './propose-bet.ts';
import { resendBetInvite } from './resend-bet-invite.ts';
import { betAggregate } from '@wagers/domain/bets/decide';
import { handle } from '@wagers/platform/aggregate';
import { INVITE_LINK_KEY, inviteLinks } from '@wagers/domain/invites/links';
import { signingKey } from '@wagers/platform/signing-keys';

export function betsRouter(deps: CommandServiceDeps): Router {
  const router = Router();
  const limits = inviteLimits(deps);
  const keys = idempotencyKeys(deps.pool, deps.runtime.now);
  const links = inviteLinks(signingKey(deps.pool, INVITE_LINK_KEY), deps.publicUrl);

  /** Runs one command on the bet named in the path and answers with where the bet now stands. */
  async function run(req: Request, res: Response, command: BetCommand) {
    const betId = String(req.params.id);
    const result = await handle(
      deps.store,
      betAggregate,
      betId,
      command,
      commandContext(req, deps.runtime),
    );
    await recordWrite(deps.sessions, req, res, result.position, result.events);
    res.json({ id: betId, status: result.state.status });
  }

  router.post('/api/bets', requireUser, async (req, res) => {
    const body = parseInput(createBetRequestSchema, req.body);
    const key = parseIdempotencyKey(req.header('idempotency-key'));
    const context = { ...commandContext(req, deps.runtime), actorId: currentUserId(req) };
    const invited = body.inviteeEmail || body.inviteePhone;
    const created = await proposeNewBet(
      { store: deps.store, links },
      body,
      key,
      context,
      invited
        ? () =>
            limits.beforeInvite(
              context.actorId,
              parseInvitee(body),
              key ? { kind: 'bet', id: betIdForKey(context.actorId, key) } : null,
            )
        : undefined,
    );
    await recordWrite(deps.sessions, req, res, created.position, created.events);
    res.status(201).json(created.body);
  });

  router.post('/api/bets/:id/accept', requireUser, (req, res) =>
    run(req, res, { type: 'AcceptBet', data: { actorId: currentUserId(req) } }),
  );
  router.post('/api/bets/:id/decline', requireUser, (req, res) =>
    run(req, res, { type: 'DeclineBet', data: { actorId: currentUserId(req) } }),
  );
  router.delete('/api/bets/:id', requireUser, (req, res) =>
    run(req, res, { type: 'DeleteBet', data: { actorId: currentUserId(req) } }),
  );
  router.post('/api/bets/:id/resolve', requireUser, async (req, res) => {
    const { resolution } = parseInput(resolveBetRequestSchema, req.body);
    const actorId = currentUserId(req);
    await run(req, res, {
      type: 'SubmitResolution',
      data: { actorId, resolution, submittedAt: deps.runtime.now().toISOString() },
    });
  });
  router.post('/api/bets/:id/mark-paid', requireUser, (req, res) =>
    run(req, res, { type: 'MarkPaid', data: { actorId: currentUserId(req) } }),
  );
  router.post('/api/bets/:id/confirm-receipt', requireUser, (req, res) =>
    run(req, res, { type: 'ConfirmReceipt', data: { actorId: currentUserId(req) } }),
  );
  router.post('/api/bets/:id/not-received', requireUser, (req, res) =>
    run(req, res, { type: 'ReportNotReceived', data: { actorId: currentUserId(req) } }),
  );
  router.post('/api/bets/:id/offer-draw', requireUser, (req, res) =>
    run(req, res, { type: 'OfferDraw', data: { actorId: currentUserId(req) } }),
  );
  router.post('/api/bets/:id/accept-draw', requireUser, (req, res) =>
    run(req, res, { type: 'AcceptDraw', data: { actorId: currentUserId(req) } }),
  );
  router.post('/api/bets/:id/resend-invite', requireUser, async (req, res) => {
    const betId = String(req.params.id);
    const key = parseIdempotencyKey(req.header('idempotency-key'));
    const position = await resendBetInvite(
      deps.store,
      betId,
      currentUserId(req),
      commandContext(req, deps.runtime),
      key ? { key, keys } : null,
      (invitee) => limits.beforeResend(currentUserId(req), invitee),
    );
    await recordWrite(deps.sessions, req, res, position);
    res.json({ id: betId, status: 'pending' });
  });

  return router;
}
