import type { Queue } from 'bullmq';
import { rateLimits } from '@wagers/platform/limits/rate-limits';
import { redisConnection } from '@wagers/platform/redis';
import type { HostContext, ServicePart } from '@wagers/platform/service-host';
import { adminBoardRouter } from './admin-board.ts';
import { devOutboxRouter } from './dev-routes.ts';
import { startInviteDispatcher } from './dispatcher.ts';
import { noticeDelivery } from './notifications/deliver-notice.ts';
import { queueTextOn, startNotificationsDispatcher } from './notifications/dispatcher.ts';
import { inviteDelivery } from './invite-delivery.ts';
import type { NotificationJob } from './jobs.ts';
import { createMailer } from './mailer.ts';
import { startDeadlines } from './reminders/start.ts';
import { createSmsSender } from './sms.ts';
import { startNotificationWorker } from './worker.ts';

/**
 * The notifier: the dispatcher that turns invite events into jobs, the worker that delivers
 * queued notifications, the bets' deadlines (reminders, standing reports), the operators' queue
 * board and the development outbox.
 */
export function notifierService(context: HostContext, queue: Queue<NotificationJob>): ServicePart {
  const { config, logger, pool, store } = context;
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, pool });
  const sms = createSmsSender(
    {
      accountSid: config.TWILIO_ACCOUNT_SID,
      authToken: config.TWILIO_AUTH_TOKEN,
      from: config.TWILIO_FROM_NUMBER,
      apiUrl: config.TWILIO_API_URL,
    },
    pool,
  );
  logger.info(
    sms.kind === 'twilio' ? 'SMS: twilio' : 'SMS: development outbox (set TWILIO_* to send)',
  );
  const worker =
    config.NOTIFIER_CONCURRENCY > 0
      ? startNotificationWorker({
          connection: redisConnection(context.redisUrl),
          mailer,
          sms,
          invites: inviteDelivery({
            store,
            pool,
            mailer,
            sms,
            runtime: context.runtime,
            logger,
            publicUrl: context.publicUrl,
          }),
          notices: noticeDelivery({
            store,
            mailer,
            sms,
            logger,
            publicUrl: context.publicUrl,
            signingSecret: config.NOTIFICATION_SIGNING_SECRET,
            limits: rateLimits(pool, context.runtime.now),
            queueText: queueTextOn(queue),
          }),
          logger,
          prefix: config.QUEUE_PREFIX,
          concurrency: config.NOTIFIER_CONCURRENCY,
        })
      : null;
  const dispatcher = startInviteDispatcher({
    queue,
    store,
    pool,
    connectionString: context.databaseUrl,
    logger,
  });
  const notices = startNotificationsDispatcher({
    queue,
    store,
    pool,
    connectionString: context.databaseUrl,
    logger,
  });
  const deadlines = startDeadlines(
    {
      ...context,
      queuePrefix: config.QUEUE_PREFIX,
      signingSecret: config.NOTIFICATION_SIGNING_SECRET,
      concurrency: config.NOTIFIER_CONCURRENCY,
      catchUpIntervalMs: config.DEADLINE_CHECK_INTERVAL_MS,
    },
    mailer,
  );
  const routers = [];
  if (config.devInbox) routers.push(devOutboxRouter(pool));
  if (config.OPERATOR_PASSWORD) {
    routers.push(
      adminBoardRouter([queue, deadlines.queue], {
        user: config.OPERATOR_USER,
        password: config.OPERATOR_PASSWORD,
      }),
    );
  }
  return {
    name: 'notifier',
    routers,
    async stop() {
      await dispatcher.stop();
      await notices.stop();
      await deadlines.stop();
      await worker?.close();
      mailer.close();
    },
  };
}
