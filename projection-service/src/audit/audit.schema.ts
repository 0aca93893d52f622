import type { ProjectorSchema } from '@wagers/platform/projections/projector';

/** The audit projector's tables, as each of its builds makes them in its own schema. */
export const auditSchema: ProjectorSchema = {
  tables: `
    -- Who holds the auditor role now.
    CREATE TABLE rm_auditors (
      user_id uuid PRIMARY KEY,
      granted_at timestamptz NOT NULL
    );
    -- Every look an auditor took at a bet: who, which bet, how, when, and as of which moment
    -- (null for the whole history).
    CREATE TABLE rm_audit_trail (
      event_id uuid PRIMARY KEY,
      auditor_id uuid NOT NULL,
      bet_id uuid NOT NULL,
      view text NOT NULL,
      viewed_at timestamptz NOT NULL,
      as_of timestamptz
    );`,
  indexes: `
    CREATE INDEX rm_audit_trail_bet ON rm_audit_trail (bet_id, viewed_at DESC);
    CREATE INDEX rm_audit_trail_time ON rm_audit_trail (viewed_at DESC);`,
};
