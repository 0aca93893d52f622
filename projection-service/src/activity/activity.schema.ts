import type { ProjectorSchema } from '@wagers/platform/projections/projector';

/** The activity projector's tables, as each of its builds makes them in its own schema. */
export const activitySchema: ProjectorSchema = {
  tables: `
    -- Who takes part in each bet, so every event of the bet reaches both people's activity.
    CREATE TABLE rm_activity_bets (
      bet_id uuid PRIMARY KEY,
      title text NOT NULL,
      creator_id uuid NOT NULL,
      opponent_id uuid
    );
    -- One row per event and person it concerns: events on your bets and your friendships.
    CREATE TABLE rm_activity (
      user_id uuid NOT NULL,
      event_id uuid NOT NULL,
      -- Insertion order breaks ties between events of the same millisecond (newest first).
      seq bigint GENERATED ALWAYS AS IDENTITY,
      type text NOT NULL,
      data jsonb NOT NULL,
      bet_id uuid,
      -- The other person of a friendship event.
      other_id uuid,
      actor_id uuid,
      occurred_at timestamptz NOT NULL,
      PRIMARY KEY (user_id, event_id)
    );`,
  indexes: `
    CREATE INDEX rm_activity_newest ON rm_activity (user_id, occurred_at DESC, seq DESC);
    CREATE INDEX rm_activity_bet ON rm_activity (bet_id);`,
};
