import { z } from 'zod';

/** auditor-{userId}: whether the user holds the auditor role. */
export const auditorStream = (userId: string) => `auditor-${userId}`;

/**
 * audittrail-{auditorId}-{YYYY-MM-DD}: what one auditor looked at on one day (UTC). A stream per
 * day keeps each append's read of its stream short however long an auditor has been at work.
 */
export const auditTrailStream = (auditorId: string, day: string) =>
  `audittrail-${auditorId}-${day}`;

export const auditViews = ['history', 'export'] as const;
export type AuditView = (typeof auditViews)[number];

export const auditorEventSchemas = {
  AuditorRoleGranted: z.object({ userId: z.string() }),
  AuditorRoleRevoked: z.object({ userId: z.string() }),
} as const;

export type AuditorRoleGranted = {
  type: 'AuditorRoleGranted';
  data: z.infer<typeof auditorEventSchemas.AuditorRoleGranted>;
};
export type AuditorRoleRevoked = {
  type: 'AuditorRoleRevoked';
  data: z.infer<typeof auditorEventSchemas.AuditorRoleRevoked>;
};
export type AuditorEvent = AuditorRoleGranted | AuditorRoleRevoked;

export const auditTrailEventSchemas = {
  AuditorViewedBet: z.object({
    auditorId: z.string(),
    betId: z.string(),
    view: z.enum(auditViews),
    /** The moment a history was read as of (ISO, UTC); absent for the whole history. */
    asOf: z.iso.datetime().optional(),
  }),
} as const;

export type AuditorViewedBet = {
  type: 'AuditorViewedBet';
  data: z.infer<typeof auditTrailEventSchemas.AuditorViewedBet>;
};
