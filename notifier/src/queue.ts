import { Queue } from 'bullmq';
import { redisProducerConnection } from '@wagers/platform/redis';
import type { HostContext, ServicePart } from '@wagers/platform/service-host';
import { NOTIFICATIONS_QUEUE, type NotificationJob } from './jobs.ts';

/**
 * The notifier's queue, for a process that puts jobs on it (and, maybe, works them). While Redis
 * is away a call on it fails at once instead of waiting in the client's offline queue: callers
 * decide (the sign-in route answers 503, the dispatcher tries the event again later), and no
 * request hangs. The client reconnects on its own with backoff.
 */
export function openNotificationQueue(context: HostContext): {
  queue: Queue<NotificationJob>;
  part: ServicePart;
} {
  const queue = new Queue<NotificationJob>(NOTIFICATIONS_QUEUE, {
    connection: redisProducerConnection(context.redisUrl),
    prefix: context.config.QUEUE_PREFIX,
  });
  let down = false;
  queue.on('error', (error) => {
    // One line per outage, not one per reconnection attempt.
    if (!down) context.logger.warn({ err: error }, 'Redis is unreachable; retrying');
    down = true;
  });
  void queue.client.then((client) =>
    client.on('ready', () => {
      if (down) context.logger.info('Redis is back');
      down = false;
    }),
  );
  return {
    queue,
    part: {
      name: 'notification queue',
      readiness: {
        redis: async () => {
          const client = await queue.client;
          if (client.status !== 'ready') throw new Error(`Redis connection is ${client.status}`);
          await queue.count();
        },
      },
      queueDepth: () => queue.getJobCounts('waiting', 'active', 'delayed', 'failed'),
      stop: () => queue.close(),
    },
  };
}
