import type { Queue } from 'bullmq';
import type { Pool } from 'pg';
import { betAggregate } from '@wagers/domain/bets/decide';
import { load } from '@wagers/platform/aggregate';
import { withPageStreams } from '@wagers/platform/event-store/page-streams';
import type { EventStore, RecordedEvent } from '@wagers/platform/event-store/port';
import type { Logger } from '@wagers/platform/logger';
import type { Projector } from '@wagers/platform/projections/projector';
import { runProjector, type RunningProjector } from '@wagers/platform/projections/runner';
import { inviteJobOptions, type NotificationJob } from '../jobs.ts';
import { concernsBoth, isNotifiable, NOTIFIABLE_TYPES, noticesFor } from './recipients.ts';

/** Its own checkpoint row, apart from the projection service's list: a rebuild never resets it. */
export const NOTIFICATIONS_DISPATCHER_NAME = 'notifier-notifications';

/** The job of one event for one person; adding it again is a no-op while the job is kept. */
export const noticeJobId = (eventId: string, recipientId: string) => `${eventId}_${recipientId}`;

/**
 * Follows the log and queues, per event and person it concerns, one email job and one text
 * message job (each sends only what the person chose at sending time). Like the invite
 * dispatcher it owns no tables and is never rebuilt, so nothing is sent twice.
 */
export function notificationsDispatcher(
  queue: Queue<NotificationJob>,
  store: EventStore,
): Projector {
  async function dispatch(event: RecordedEvent, streams: EventStore): Promise<void> {
    if (!isNotifiable(event)) return;
    const parties = event.streamId.startsWith('bet-')
      ? await load(streams, betAggregate, event.streamId.slice('bet-'.length))
      : null;
    for (const notice of noticesFor(event, parties)) {
      // Nobody is told about what they did themselves; a disagreement or a completion is news
      // to both sides, whoever's report caused it.
      if (notice.recipientId === event.metadata.actorId && !concernsBoth(notice.kind)) continue;
      const job: NotificationJob = {
        kind: 'notice',
        eventId: event.id,
        eventType: event.type,
        actorId: event.metadata.actorId,
        recipientId: notice.recipientId,
        notification: notice.kind,
        betId: notice.betId,
      };
      // One job per channel, so a failed text never sends the email again (nor the reverse).
      const jobId = noticeJobId(event.id, notice.recipientId);
      await queue.addBulk([
        { name: 'notice', data: job, opts: { ...inviteJobOptions, jobId } },
        {
          name: 'notice',
          data: { ...job, channel: 'sms' },
          opts: { ...inviteJobOptions, jobId: `${jobId}_sms` },
        },
      ]);
    }
  }

  return {
    name: NOTIFICATIONS_DISPATCHER_NAME,
    version: 1,
    tables: [],
    eventTypes: NOTIFIABLE_TYPES,
    // A bet proposed and answered within one page is known from the page, not read again.
    async applyPage(_client, events) {
      const streams = withPageStreams(store, events);
      for (const event of events) await dispatch(event, streams);
    },
  };
}

export function startNotificationsDispatcher(deps: {
  queue: Queue<NotificationJob>;
  store: EventStore;
  pool: Pool;
  connectionString: string;
  logger: Logger;
}): RunningProjector {
  return runProjector(notificationsDispatcher(deps.queue, deps.store), {
    store: deps.store,
    pool: deps.pool,
    connectionString: deps.connectionString,
    logger: deps.logger.child({ component: NOTIFICATIONS_DISPATCHER_NAME }),
  });
}
