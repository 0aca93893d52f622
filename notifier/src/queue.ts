import { Queue } from 'bullmq';
import { redisConnection } from '@wagers/platform/redis';
import type { HostContext, ServicePart } from '@wagers/platform/service-host';
import { NOTIFICATIONS_QUEUE, type NotificationJob } from './jobs.ts';

/** The notifier's queue, for a process that puts jobs on it (and, maybe, works them). */
export function openNotificationQueue(context: HostContext): {
  queue: Queue<NotificationJob>;
  part: ServicePart;
} {
  const queue = new Queue<NotificationJob>(NOTIFICATIONS_QUEUE, {
    connection: redisConnection(context.redisUrl),
    prefix: context.config.QUEUE_PREFIX,
  });
  return {
    queue,
    part: {
      name: 'notification queue',
      readiness: {
        redis: async () => {
          await queue.count();
        },
      },
      queueDepth: () => queue.getJobCounts('waiting', 'active', 'delayed', 'failed'),
      stop: () => queue.close(),
    },
  };
}
