import type { Config } from '@wagers/platform/config';
import { createPool } from '@wagers/platform/db';
import { createEventStore } from '@wagers/platform/event-store/factory';
import { createLogger } from '@wagers/platform/logger';
import { redisConnection } from '@wagers/platform/redis';
import { systemRuntime } from '@wagers/platform/runtime';
import { inviteDelivery } from '@wagers/notifier/invite-delivery';
import { createMailer } from '@wagers/notifier/mailer';
import { createSmsSender } from '@wagers/notifier/sms';
import { startNotificationWorker } from '@wagers/notifier/worker';

/**
 * A notifier worker of its own (not the app's), on the app's database, Redis and queue prefix.
 * It looks for a dead worker's jobs every 500 ms: the queue runs that check at most once per
 * interval of whichever worker ran it last, so every worker of a test shares the short one.
 */
export function startStandaloneWorker(
  config: Config,
  options: { concurrency: number; lockDuration?: number; stalledInterval?: number },
) {
  if (!config.DATABASE_URL || !config.REDIS_URL || !config.PUBLIC_URL) {
    throw new Error('a standalone worker needs DATABASE_URL, REDIS_URL and PUBLIC_URL');
  }
  const publicUrl = config.PUBLIC_URL;
  const logger = createLogger(config.LOG_LEVEL);
  const pool = createPool(config.DATABASE_URL, 4);
  const store = createEventStore(config, pool, config.DATABASE_URL);
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, pool });
  const sms = createSmsSender({}, pool);
  const worker = startNotificationWorker({
    connection: redisConnection(config.REDIS_URL),
    mailer,
    sms,
    invites: inviteDelivery({
      store,
      pool,
      mailer,
      sms,
      runtime: systemRuntime,
      logger,
      publicUrl: () => publicUrl,
    }),
    logger,
    prefix: config.QUEUE_PREFIX,
    stalledInterval: 500,
    ...options,
  });
  return {
    worker,
    async stop() {
      await worker.close();
      mailer.close();
      await store.close();
      await pool.end();
    },
  };
}
