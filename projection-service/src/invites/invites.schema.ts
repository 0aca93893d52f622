import type { ProjectorSchema } from '@wagers/platform/projections/projector';

/** The invites projector's tables, as each of its builds makes them in its own schema. */
export const invitesSchema: ProjectorSchema = {
  tables: `
    CREATE TABLE rm_invites (
      code text PRIMARY KEY,
      inviter_id uuid NOT NULL,
      invitee_email text,
      invitee_phone text,
      bet_id uuid,
      message text,
      -- Only its signed link opens it (every invite sent since links were signed).
      signed_link boolean NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'accepted')),
      accepted_by uuid,
      -- Outcome of the latest delivery: pending until the notifier records one.
      delivery_status text NOT NULL DEFAULT 'pending'
        CHECK (delivery_status IN ('pending', 'delivered', 'failed')),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      -- Revision of invite-{code} this row reflects; a replayed event at or below it is a no-op.
      revision bigint NOT NULL
    );`,
  indexes: `
    CREATE INDEX rm_invites_inviter ON rm_invites (inviter_id, created_at DESC);
    CREATE INDEX rm_invites_bet ON rm_invites (bet_id) WHERE bet_id IS NOT NULL;`,
};
