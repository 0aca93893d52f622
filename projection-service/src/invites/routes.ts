import { Router } from 'express';
import type { InviteView } from '@wagers/contracts/api/invites';
import { formatCents } from '@wagers/contracts/api/money';
import { INVITE_LINK_KEY, readLinkCode } from '@wagers/domain/invites/links';
import { notFound } from '@wagers/platform/errors';
import { signingKey } from '@wagers/platform/signing-keys';
import { readYourWrites } from '../consistency.ts';
import type { QueryServiceDeps } from '../deps.ts';

interface InviteRow {
  signed_link: boolean;
  status: 'pending' | 'accepted';
  message: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string;
  profile_image_url: string | null;
  inviter_deleted: boolean;
  invite_bet_id: string | null;
  bet_id: string | null;
  bet_title: string | null;
  bet_description: string | null;
  wager_type: 'money' | 'custom' | null;
  wager_amount_cents: string | null;
  wager_description: string | null;
}

/**
 * GET /api/invites/{code}: public, since the link's code is the secret a newcomer holds. The code
 * alone, as the event log shows it, finds only an invite sent before links were signed.
 */
export function invitesQueryRouter(deps: QueryServiceDeps): Router {
  const router = Router();
  const linkKey = signingKey(deps.pool, INVITE_LINK_KEY);
  router.get(
    '/api/invites/:code',
    readYourWrites(deps, ['invites', 'users', 'bets']),
    async (req, res) => {
      const linkCode = String(req.params.code);
      const link = readLinkCode(await linkKey(), linkCode);
      if (!link) throw notFound('This invite link is invalid or has expired');
      const result = await deps.pool.query<InviteRow>(
        `SELECT i.signed_link, i.status, i.message, i.bet_id AS invite_bet_id, u.first_name, u.last_name, u.email, u.profile_image_url,
              u.deleted_at IS NOT NULL AS inviter_deleted,
              b.id AS bet_id, b.title AS bet_title, b.description AS bet_description, b.wager_type,
              b.wager_amount_cents, b.wager_description
       FROM rm_invites i
       JOIN rm_users u ON u.id = i.inviter_id
       LEFT JOIN rm_bets b ON b.id = i.bet_id AND b.status <> 'deleted'
       WHERE i.code = $1`,
        [link.code],
      );
      const row = result.rows[0];
      // An invite to a bet its creator has since deleted leads nowhere, nor does one from an
      // account deleted since: there is nobody left to befriend.
      if (
        !row ||
        (row.signed_link && !link.signed) ||
        row.inviter_deleted ||
        (row.invite_bet_id && !row.bet_id)
      )
        throw notFound('This invite link is invalid or has expired');
      const view: InviteView = {
        code: linkCode,
        status: row.status,
        inviter: {
          firstName: row.first_name,
          lastName: row.last_name,
          email: row.email,
          profileImageUrl: row.profile_image_url,
        },
        ...(row.bet_id && row.bet_title !== null && row.wager_type
          ? {
              bet: {
                id: row.bet_id,
                title: row.bet_title,
                description: row.bet_description ?? '',
                wagerType: row.wager_type,
                wagerAmount:
                  row.wager_amount_cents === null
                    ? null
                    : formatCents(Number(row.wager_amount_cents)),
                wagerDescription: row.wager_description,
              },
            }
          : {}),
        ...(row.message ? { message: row.message } : {}),
      };
      res.json(view);
    },
  );
  return router;
}
