import type { Queue } from 'bullmq';
import type { Pool } from 'pg';
import { inviteEventSchemas } from '@wagers/contracts/events/invite';
import type { EventStore } from '@wagers/platform/event-store/port';
import type { Logger } from '@wagers/platform/logger';
import type { Projector } from '@wagers/platform/projections/projector';
import { runProjector, type RunningProjector } from '@wagers/platform/projections/runner';
import { inviteJobOptions, type NotificationJob } from './jobs.ts';

/** Its row in projection_checkpoints. Not in the projection service's list, so no rebuild resets it. */
export const DISPATCHER_NAME = 'notifier-dispatcher';
/** The events it puts jobs on the queue for. */
export const INVITE_DISPATCH_TYPES: ReadonlySet<string> = new Set(['InviteSent', 'InviteResent']);

/**
 * Follows the log and puts one job per InviteSent / InviteResent on the queue, the event id as
 * the job id. It borrows the projection runner's machinery (one active copy behind an advisory
 * lock, its own checkpoint committed after each page) but owns no tables and must never be
 * rebuilt: its version stays 1, since starting again from zero would only lean on the job ids to
 * avoid sending everything twice.
 */
export function inviteDispatcher(queue: Queue<NotificationJob>): Projector {
  return {
    name: DISPATCHER_NAME,
    version: 1,
    tables: [],
    eventTypes: INVITE_DISPATCH_TYPES,
    async apply(_client, event) {
      if (event.type !== 'InviteSent' && event.type !== 'InviteResent') return;
      const { code } = inviteEventSchemas[event.type].parse(event.data);
      await queue.add(
        'invite',
        { kind: 'invite', code, deliveryId: event.id },
        { ...inviteJobOptions, jobId: event.id },
      );
    },
  };
}

export function startInviteDispatcher(deps: {
  queue: Queue<NotificationJob>;
  store: EventStore;
  pool: Pool;
  connectionString: string;
  logger: Logger;
}): RunningProjector {
  return runProjector(inviteDispatcher(deps.queue), {
    store: deps.store,
    pool: deps.pool,
    connectionString: deps.connectionString,
    logger: deps.logger.child({ component: 'notifier-dispatcher' }),
  });
}
