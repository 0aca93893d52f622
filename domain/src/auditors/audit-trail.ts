import {
  auditTrailEventSchemas,
  auditTrailStream,
  type AuditorViewedBet,
  type AuditView,
} from '@wagers/contracts/events/auditor';
import { defineAggregate } from '@wagers/platform/aggregate';
import { schemaReader, type Decider } from '@wagers/platform/decider';

/** One auditor's trail for one UTC day. */
export interface TrailDay {
  auditorId: string;
  /** YYYY-MM-DD. */
  day: string;
}

export type RecordBetViewed = {
  type: 'RecordBetViewed';
  data: { auditorId: string; betId: string; view: AuditView; asOf?: string };
};

/**
 * Every look is recorded, so there is nothing to refuse: whether the reader is an auditor is
 * decided from the auditor aggregate before the command is built.
 */
export const auditTrailDecider: Decider<null, RecordBetViewed, AuditorViewedBet> = {
  initialState: () => null,
  decide: (command) => [{ type: 'AuditorViewedBet', data: command.data }],
  evolve: (state) => state,
};

export const trailDay = (auditorId: string, now: Date): TrailDay => ({
  auditorId,
  day: now.toISOString().slice(0, 10),
});

/** audittrail-{auditorId}-{day}. */
export const auditTrailAggregate = defineAggregate({
  stream: ({ auditorId, day }: TrailDay) => auditTrailStream(auditorId, day),
  decider: auditTrailDecider,
  read: schemaReader<AuditorViewedBet>(auditTrailEventSchemas),
});
