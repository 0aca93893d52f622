import { inviteEventSchemas } from '@wagers/contracts/events/invite';
import type { Projector } from '@wagers/platform/projections/projector';
import { invitesSchema } from './invites.schema.ts';

/** rm_invites: one row per invite, for the public invite page and the inviter's lists. */
export const invitesProjector: Projector = {
  name: 'invites',
  version: 1,
  tables: ['rm_invites'],
  schema: invitesSchema,
  async apply(client, event) {
    const revision = event.revision.toString();
    const at = event.metadata.occurredAt;
    const update = (code: string, set: string, values: unknown[]) =>
      client.query(
        `UPDATE rm_invites SET ${set}, updated_at = $2, revision = $3 WHERE code = $1 AND revision < $3`,
        [code, at, revision, ...values],
      );
    switch (event.type) {
      case 'InviteSent': {
        const data = inviteEventSchemas.InviteSent.parse(event.data);
        await client.query(
          `INSERT INTO rm_invites (code, inviter_id, invitee_email, invitee_phone, bet_id, message, status,
                                   created_at, updated_at, revision)
           VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $7, $8) ON CONFLICT (code) DO NOTHING`,
          [
            data.code,
            data.inviterId,
            data.inviteeEmail,
            data.inviteePhone,
            data.betId,
            data.message,
            at,
            revision,
          ],
        );
        return;
      }
      case 'InviteResent':
        await update(
          inviteEventSchemas.InviteResent.parse(event.data).code,
          `delivery_status = 'pending'`,
          [],
        );
        return;
      case 'InviteAccepted': {
        const data = inviteEventSchemas.InviteAccepted.parse(event.data);
        await update(data.code, `status = 'accepted', accepted_by = $4`, [data.acceptedBy]);
        return;
      }
      case 'InviteDelivered':
        await update(
          inviteEventSchemas.InviteDelivered.parse(event.data).code,
          `delivery_status = 'delivered'`,
          [],
        );
        return;
      case 'InviteDeliveryFailed':
        await update(
          inviteEventSchemas.InviteDeliveryFailed.parse(event.data).code,
          `delivery_status = 'failed'`,
          [],
        );
        return;
      default:
        return;
    }
  },
};
