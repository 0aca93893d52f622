import type { Queue } from 'bullmq';
import type { Pool } from 'pg';
import { betAggregate } from '@wagers/domain/bets/decide';
import { loadAsOf } from '@wagers/platform/aggregate';
import { withPageStreams, withStreamsRead } from '@wagers/platform/event-store/page-streams';
import type { EventStore, RecordedEvent } from '@wagers/platform/event-store/port';
import type { Logger } from '@wagers/platform/logger';
import type { Projector } from '@wagers/platform/projections/projector';
import { runProjector, type RunningProjector } from '@wagers/platform/projections/runner';
import { inviteJobOptions, type NotificationJob } from '../jobs.ts';
import type { NoticeJob } from './deliver-notice.ts';
import { concernsBoth, isNotifiable, NOTIFIABLE_TYPES, noticesFor } from './recipients.ts';

/** Its own checkpoint row, apart from the projection service's list: a rebuild never resets it. */
export const NOTIFICATIONS_DISPATCHER_NAME = 'notifier-notifications';

/** The job of one event for one person; adding it again is a no-op while the job is kept. */
export const noticeJobId = (eventId: string, recipientId: string) => `${eventId}_${recipientId}`;

/** The text message job queued by the notice's own job, when the person wants it texted. */
export const textJobId = (eventId: string, recipientId: string) =>
  `${noticeJobId(eventId, recipientId)}_sms`;

/**
 * Puts a notice's text message on the queue, next to be taken (LIFO): it goes out about when it
 * would have, had it been queued with the notice.
 */
export const queueTextOn =
  (queue: Queue<NotificationJob>) =>
  async (job: NoticeJob & { channel: 'sms' }): Promise<void> => {
    await queue.add('notice', job, {
      ...inviteJobOptions,
      jobId: textJobId(job.eventId, job.recipientId),
      lifo: true,
    });
  };

const isBetEvent = (event: RecordedEvent) => event.streamId.startsWith('bet-');

/** Jobs per MULTI: a page caught up after downtime does not hold Redis in one long transaction. */
const ADD_CHUNK = 500;

/**
 * Follows the log and queues one job per event and person it concerns. That job tells them by
 * every channel they choose at its sending time: it sends the email itself and queues the text
 * message as a job of its own, so a failed text never sends the email again (nor the reverse).
 * Like the invite dispatcher it owns no tables and is never rebuilt, so nothing is sent twice.
 */
export function notificationsDispatcher(
  queue: Queue<NotificationJob>,
  store: EventStore,
): Projector {
  async function noticesOf(event: RecordedEvent, streams: EventStore) {
    if (!isNotifiable(event)) return [];
    // The bet as it stood at this event, not as it is now: a dispatcher that is behind (Redis
    // down, a restart) tells what a prompt one would have told, however the bet moved on since.
    const parties = isBetEvent(event)
      ? await loadAsOf(streams, betAggregate, event.streamId.slice('bet-'.length), event.revision)
      : null;
    const jobs = [];
    for (const notice of noticesFor(event, parties)) {
      // Nobody is told about what they did themselves; a disagreement or a completion is news
      // to both sides, whoever's report caused it.
      if (notice.recipientId === event.metadata.actorId && !concernsBoth(notice.kind)) continue;
      const data: NotificationJob = {
        kind: 'notice',
        eventId: event.id,
        eventType: event.type,
        actorId: event.metadata.actorId,
        recipientId: notice.recipientId,
        notification: notice.kind,
        betId: notice.betId,
      };
      const jobId = noticeJobId(event.id, notice.recipientId);
      jobs.push({ name: 'notice', data, opts: { ...inviteJobOptions, jobId } });
    }
    return jobs;
  }

  return {
    name: NOTIFICATIONS_DISPATCHER_NAME,
    version: 1,
    tables: [],
    // A new dispatcher (a first deploy, a new database for an old log) tells nobody of the
    // history: it starts at the log's head.
    firstStartAtHead: true,
    eventTypes: NOTIFIABLE_TYPES,
    // The bets of a page's notices are read together, in one round trip; a bet born within the
    // page is known from the page, not read at all. The page's jobs go on the queue together,
    // before its checkpoint moves.
    async applyPage(_client, events) {
      const bets = new Set(
        events
          .filter(isNotifiable)
          .filter(isBetEvent)
          .map((e) => e.streamId),
      );
      const page = withPageStreams(store, events);
      const streams = bets.size > 0 ? await withStreamsRead(page, [...bets]) : page;
      const jobs = [];
      for (const event of events) jobs.push(...(await noticesOf(event, streams)));
      for (let i = 0; i < jobs.length; i += ADD_CHUNK)
        await queue.addBulk(jobs.slice(i, i + ADD_CHUNK));
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
