import type { Queue } from 'bullmq';
import {
  deadlinesEverPlanned,
  deadlinesOf,
  initialDeadlineState,
} from '@wagers/domain/bets/deadlines';
import { betStreamEventSchemas } from '@wagers/contracts/events/bet';
import { withPageStreams } from '@wagers/platform/event-store/page-streams';
import type { EventStore } from '@wagers/platform/event-store/port';
import type { Projector } from '@wagers/platform/projections/projector';
import type { Runtime } from '@wagers/platform/runtime';
import { deadlineHistory, isBetEvent } from './bet-deadlines.ts';
import { deadlineJobId, deadlineJobOptions, type DeadlineJob } from './jobs.ts';

/** Its own checkpoint row, apart from the projection service's list: a rebuild never resets it. */
export const DEADLINES_SCHEDULER_NAME = 'notifier-deadlines';

/**
 * Makes the queue hold, for one bet, a delayed job per deadline its stream has ahead of it, and no
 * job for a deadline it no longer has (a side reported, the bet completed or was deleted). It looks
 * at the whole stream, not at one event, so running it again for any of the bet's events is a no-op,
 * but for a deadline whose job failed for good: that job is retried.
 */
export async function reconcileBet(
  queue: Queue<DeadlineJob>,
  store: EventStore,
  runtime: Runtime,
  betId: string,
): Promise<void> {
  const history = await deadlineHistory(store, betId);
  const wanted = deadlinesOf(history.at(-1) ?? initialDeadlineState());
  const wantedIds = new Set(wanted.map((deadline) => deadline.id));
  for (const [id] of deadlinesEverPlanned(history)) {
    if (!wantedIds.has(id)) await queue.remove(deadlineJobId(betId, id));
  }
  const now = runtime.now().getTime();
  for (const deadline of wanted) {
    const jobId = deadlineJobId(betId, deadline.id);
    // Adding an id the queue holds is a no-op, a failed job's too: a deadline that failed for good
    // (its retries ran out during an outage) is tried again, with all its attempts, instead.
    if ((await queue.getJobState(jobId)) === 'failed') {
      const failed = await queue.getJob(jobId);
      await failed?.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      continue;
    }
    await queue.add(
      deadline.kind,
      { kind: deadline.kind, betId, deadlineId: deadline.id, dueAt: deadline.dueAt },
      {
        ...deadlineJobOptions,
        jobId,
        delay: Math.max(0, Date.parse(deadline.dueAt) - now),
      },
    );
  }
}

/**
 * The events it acts on: every event of a bet's stream but the proposal. A proposal alone gives a
 * bet no deadline (it is pending) and takes none away: the bet's next event reconciles its whole
 * stream, the proposal with it.
 */
export const DEADLINE_EVENT_TYPES: ReadonlySet<string> = new Set(
  Object.keys(betStreamEventSchemas).filter((t) => t !== 'BetProposed'),
);

/**
 * Follows the log from its own checkpoint and keeps each bet's deadlines on the queue. Like the
 * dispatchers it owns no tables and is never rebuilt (version 1).
 */
export function deadlinesScheduler(
  queue: Queue<DeadlineJob>,
  store: EventStore,
  runtime: Runtime,
): Projector {
  const eventTypes = DEADLINE_EVENT_TYPES;
  return {
    name: DEADLINES_SCHEDULER_NAME,
    version: 1,
    tables: [],
    eventTypes,
    // Each bet of the page once, as of the page's end; one born in the page is not read again.
    async applyPage(_client, events) {
      const streams = withPageStreams(store, events);
      const bets = new Set(
        events
          .filter((e) => isBetEvent(e) && eventTypes.has(e.type))
          .map((e) => e.streamId.slice('bet-'.length)),
      );
      for (const betId of bets) await reconcileBet(queue, streams, runtime, betId);
    },
  };
}

/**
 * Moves to the front every delayed job whose time has come by the clock: at start (what fell due
 * while the notifier was down) and now and then after. The queue's own timers do the same on the
 * real clock; this makes the injected clock the one that counts.
 */
export async function promoteDueDeadlines(queue: Queue<DeadlineJob>, now: Date): Promise<number> {
  const PAGE = 500;
  const due = [];
  // Read every page first: promoting shifts the pages that follow.
  for (let start = 0; ; start += PAGE) {
    const jobs = await queue.getDelayed(start, start + PAGE - 1);
    due.push(...jobs.filter((job) => Date.parse(job.data.dueAt) <= now.getTime()));
    if (jobs.length < PAGE) break;
  }
  let promoted = 0;
  for (const job of due) {
    try {
      await job.promote();
      promoted++;
    } catch {
      // Promoted, removed or run meanwhile: nothing left to do for it.
    }
  }
  return promoted;
}
