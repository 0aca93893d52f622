import type { ProjectorSchema } from '@wagers/platform/projections/projector';

/** The head-to-head projector's tables, as each of its builds makes them in its own schema. */
export const headToHeadSchema: ProjectorSchema = {
  tables: `
    -- One row per bet between two people, from its proposal on; the record counts the completed ones.
    CREATE TABLE rm_head_to_head (
      bet_id uuid PRIMARY KEY,
      creator_id uuid NOT NULL,
      opponent_id uuid,
      -- Integer cents for a money bet with an amount; null otherwise.
      amount_cents bigint,
      completed boolean NOT NULL DEFAULT false,
      -- Null for a draw.
      winner_id uuid,
      -- Revision of bet-{id} this row reflects; a replayed event at or below it is a no-op.
      revision bigint NOT NULL
    );`,
  indexes: `
    CREATE INDEX rm_head_to_head_creator ON rm_head_to_head (creator_id, opponent_id) WHERE completed;
    CREATE INDEX rm_head_to_head_opponent ON rm_head_to_head (opponent_id, creator_id) WHERE completed;`,
};
