import type { ProjectorSchema } from '@wagers/platform/projections/projector';

/** The settle-up projector's tables, as each of its builds makes them in its own schema. */
export const settleUpSchema: ProjectorSchema = {
  tables: `
    -- One row per money bet with an amount, from its proposal on: settling up needs the title and
    -- amount from the proposal, the winner from the completion and the payment from later events.
    CREATE TABLE rm_settle_up (
      bet_id uuid PRIMARY KEY,
      title text NOT NULL,
      amount_cents bigint NOT NULL,
      creator_id uuid NOT NULL,
      opponent_id uuid,
      -- Set once the bet completes with a winner; a draw or an open bet owes nothing.
      winner_id uuid,
      loser_id uuid,
      payment_status text NOT NULL DEFAULT 'unpaid',
      updated_at timestamptz NOT NULL,
      -- Revision of bet-{id} this row reflects; a replayed event at or below it is a no-op.
      revision bigint NOT NULL
    );`,
  indexes: `
    CREATE INDEX rm_settle_up_winner ON rm_settle_up (winner_id) WHERE payment_status <> 'confirmed';
    CREATE INDEX rm_settle_up_loser ON rm_settle_up (loser_id) WHERE payment_status <> 'confirmed';`,
};
