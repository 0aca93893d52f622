import { auditorEventSchemas, auditTrailEventSchemas } from '@wagers/contracts/events/auditor';
import type { Projector } from '@wagers/platform/projections/projector';
import { auditSchema } from './audit.schema.ts';

/** rm_auditors (who holds the role) and rm_audit_trail (every look an auditor took at a bet). */
export const auditProjector: Projector = {
  name: 'audit',
  // 2: the trail keeps the moment a history was read as of.
  version: 2,
  eventTypes: new Set([
    ...Object.keys(auditorEventSchemas),
    ...Object.keys(auditTrailEventSchemas),
  ]),
  schema: auditSchema,
  tables: ['rm_auditors', 'rm_audit_trail'],
  async apply(client, event) {
    switch (event.type) {
      case 'AuditorRoleGranted': {
        const { userId } = auditorEventSchemas.AuditorRoleGranted.parse(event.data);
        await client.query(
          `INSERT INTO rm_auditors (user_id, granted_at) VALUES ($1, $2)
           ON CONFLICT (user_id) DO UPDATE SET granted_at = excluded.granted_at`,
          [userId, event.metadata.occurredAt],
        );
        return;
      }
      case 'AuditorRoleRevoked': {
        const { userId } = auditorEventSchemas.AuditorRoleRevoked.parse(event.data);
        await client.query('DELETE FROM rm_auditors WHERE user_id = $1', [userId]);
        return;
      }
      case 'AuditorViewedBet': {
        const data = auditTrailEventSchemas.AuditorViewedBet.parse(event.data);
        await client.query(
          `INSERT INTO rm_audit_trail (event_id, auditor_id, bet_id, view, viewed_at, as_of)
           VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (event_id) DO NOTHING`,
          [
            event.id,
            data.auditorId,
            data.betId,
            data.view,
            event.metadata.occurredAt,
            data.asOf ?? null,
          ],
        );
        return;
      }
      default:
        return;
    }
  },
};
