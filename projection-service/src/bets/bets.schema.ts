import { storedJsonText } from '@wagers/platform/http/json-text';
import type { ProjectorSchema } from '@wagers/platform/projections/projector';
import { betJsonColumn, betJsonRuns } from './bet-row.ts';

/** rm_bets's columns and their types, as the projector writes them (its `rowTable`). */
export const betColumns = {
  id: 'uuid',
  seq: 'bigint',
  title: 'text',
  description: 'text',
  wager_type: 'text',
  wager_amount_cents: 'bigint',
  wager_description: 'text',
  end_date: 'date',
  validation_mode: 'text',
  status: 'text',
  creator_id: 'uuid',
  opponent_id: 'uuid',
  invitee: 'text',
  invite_code: 'text',
  creator_resolution: 'text',
  opponent_resolution: 'text',
  winner_id: 'uuid',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  revision: 'bigint',
} as const;

/** Each run of a bet's own JSON text kept as a generated column `json_<run>` (decision 28). */
const jsonRuns = Object.entries(betJsonRuns).map(([run, text]) =>
  storedJsonText('rm_bets', betJsonColumn(run), betColumns, text),
);

/** The bets projector's tables, as each of its builds makes them in its own schema. */
export const betsSchema: ProjectorSchema = {
  tables: `${jsonRuns.map((ddl) => ddl.functionDdl).join('')}
    -- One row per bet, deleted ones included (status 'deleted'): lists leave them out, the history
    -- and its participant check still need them.
    CREATE TABLE rm_bets (
      id uuid PRIMARY KEY,
      -- Log position of the proposal: breaks ties between bets created in the same millisecond.
      seq bigint NOT NULL,
      title text NOT NULL,
      description text NOT NULL,
      wager_type text NOT NULL,
      -- Integer cents; never a float.
      wager_amount_cents bigint,
      wager_description text,
      end_date date,
      validation_mode text NOT NULL,
      status text NOT NULL,
      creator_id uuid NOT NULL,
      opponent_id uuid,
      -- Email or phone of the invited newcomer, shown to the creator only.
      invitee text,
      invite_code text,
      creator_resolution text,
      opponent_resolution text,
      winner_id uuid,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      -- Revision of bet-{id} this row reflects; a replayed event at or below it is a no-op.
      revision bigint NOT NULL${jsonRuns.map((ddl) => ddl.columnDdl).join('')}
    );
    -- Every event of every bet stream, one row per revision: the auditor's view.
    CREATE TABLE rm_bet_history (
      bet_id uuid NOT NULL,
      revision bigint NOT NULL,
      event_id uuid NOT NULL,
      type text NOT NULL,
      -- The event's data as the page gave it: json, whose input is only checked, not parsed into
      -- jsonb, which a rebuild paid for a million times (decision 30).
      data json NOT NULL,
      actor_id uuid,
      occurred_at timestamptz NOT NULL
    );`,
  indexes: `
    ALTER TABLE rm_bet_history ADD PRIMARY KEY (bet_id, revision);
    CREATE INDEX rm_bets_creator ON rm_bets (creator_id, created_at DESC, seq DESC);
    CREATE INDEX rm_bets_opponent ON rm_bets (opponent_id, created_at DESC, seq DESC);
    CREATE INDEX rm_bets_invite_code ON rm_bets (invite_code);`,
};
