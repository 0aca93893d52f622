import type { ProjectorSchema } from '@wagers/platform/projections/projector';

/** The bet-terms projector's tables, as each of its builds makes them in its own schema. */
export const betTermsSchema: ProjectorSchema = {
  tables: `
    -- How a bet can end without matching reports: the creator's standing report and draw offers.
    CREATE TABLE rm_bet_terms (
      bet_id uuid PRIMARY KEY,
      creator_id uuid NOT NULL,
      opponent_id uuid,
      report_stands boolean NOT NULL,
      opponent_reported boolean NOT NULL DEFAULT false,
      -- When the creator's report stands if the opponent stays silent; null when nothing can stand.
      stands_at timestamptz,
      draw_offered_by uuid,
      -- 'reports', 'draw' or 'standing' once completed.
      settled_by text,
      -- Revision of bet-{id} this row reflects; a replayed event at or below it is a no-op.
      revision bigint NOT NULL
    );`,
  indexes: `
`,
};
