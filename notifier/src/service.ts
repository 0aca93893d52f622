import type { Queue } from 'bullmq';
import { redisConnection } from '@wagers/platform/redis';
import type { HostContext, ServicePart } from '@wagers/platform/service-host';
import { devOutboxRouter } from './dev-routes.ts';
import type { NotificationJob } from './jobs.ts';
import { createMailer } from './mailer.ts';
import { startNotificationWorker } from './worker.ts';

/** The notifier: the worker that delivers queued notifications, and the development outbox. */
export function notifierService(context: HostContext, _queue: Queue<NotificationJob>): ServicePart {
  const { config, logger, pool } = context;
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, pool });
  const worker = startNotificationWorker({
    connection: redisConnection(context.redisUrl),
    mailer,
    logger,
    prefix: config.QUEUE_PREFIX,
  });
  return {
    routers: config.devInbox ? [devOutboxRouter(pool)] : [],
    async stop() {
      await worker.close();
      mailer.close();
    },
  };
}
