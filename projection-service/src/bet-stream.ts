import type { ClientBase } from 'pg';
import { betStreamEventSchemas, type BetStreamEvent } from '@wagers/contracts/events/bet';
import { schemaReader } from '@wagers/platform/decider';
import type { RecordedEvent } from '@wagers/platform/event-store/port';

const readBetStreamEvent = schemaReader<BetStreamEvent>(betStreamEventSchemas);

/** An event of a bet stream as the bet projectors use it; null for any other stream or type. */
export function betStreamEvent(
  recorded: RecordedEvent,
): { betId: string; revision: string; event: BetStreamEvent } | null {
  if (!recorded.streamId.startsWith('bet-')) return null;
  const event = readBetStreamEvent(recorded);
  if (!event) return null;
  return {
    betId: recorded.streamId.slice('bet-'.length),
    revision: recorded.revision.toString(),
    event,
  };
}

/**
 * Sets columns on a bet's row of `table` (keyed by bet_id, with a revision column) unless the
 * row already reflects this revision: `set` uses $3 onwards for `values`.
 */
export function updateBetRow(
  client: ClientBase,
  table: string,
  bet: { betId: string; revision: string },
  set: string,
  values: unknown[] = [],
) {
  return client.query(
    `UPDATE ${table} SET ${set}, revision = $2 WHERE bet_id = $1 AND revision < $2`,
    [bet.betId, bet.revision, ...values],
  );
}
