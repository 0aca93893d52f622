import type { Deadline } from '@wagers/domain/bets/deadlines';
import { defaultJobOptions } from '../jobs.ts';

/** The queue of a bet's deadlines: delayed jobs, each due when its reminder or standing report is. */
export const DEADLINES_QUEUE = 'deadlines';

/** One deadline of one bet; the worker reads the bet again before it acts. */
export interface DeadlineJob {
  kind: Deadline['kind'];
  betId: string;
  deadlineId: string;
  /** ISO; the catch-up compares it with the clock. */
  dueAt: string;
  /**
   * Set once the reminder's email went out, before it is recorded: a retry after a failed record
   * records it and sends nothing again.
   */
  sent?: true;
}

/** Deterministic: the same deadline of the same bet is always the same job (BullMQ ids have no colon). */
export const deadlineJobId = (betId: string, deadlineId: string) => `${betId}_${deadlineId}`;

/** Done jobs stay a month, so a replay of the log that adds one again is a no-op meanwhile. */
export const deadlineJobOptions = {
  ...defaultJobOptions,
  removeOnComplete: { age: 30 * 24 * 3600 },
} as const;
