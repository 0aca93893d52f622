import { randomBytes } from 'node:crypto';
import { Queue, type Worker } from 'bullmq';
import type { Pool } from 'pg';
import { createPool } from '@wagers/platform/db';
import { createPostgresEventStore } from '@wagers/platform/event-store/postgres';
import type { EventStore } from '@wagers/platform/event-store/port';
import { rateLimits } from '@wagers/platform/limits/rate-limits';
import { limitMigrations } from '@wagers/platform/limits/migrations';
import { createLogger, type Logger } from '@wagers/platform/logger';
import { migrate, platformMigrations } from '@wagers/platform/migrations';
import { redisConnection, redisProducerConnection } from '@wagers/platform/redis';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { dropQueueKeys } from '@wagers/test-support/redis';
import { startTestSmtpServer, type TestSmtpServer } from '@wagers/test-support/smtp';
import { NOTIFICATIONS_QUEUE, type NotificationJob } from '../jobs.ts';
import { createMailer, type Mailer } from '../mailer.ts';
import { noticeDelivery } from '../notifications/deliver-notice.ts';
import { queueTextOn } from '../notifications/dispatcher.ts';
import type { SmsSender } from '../sms.ts';
import { startNotificationWorker, type WorkerDeps } from '../worker.ts';

/** The address the links in what the notifier sends start with. */
export const PUBLIC_URL = 'http://wagers.test';

export interface NotifierWorkerOptions extends Pick<WorkerDeps, 'sms' | 'invites' | 'concurrency'> {
  /** How notices are delivered: the texts' sender, the store read from, the texts cap's clock. */
  notices: {
    sms: SmsSender;
    /** The harness's own store unless given. */
    store?: EventStore;
    /** The real time unless given. */
    now?: () => Date;
  };
}

/**
 * What the notifier's integration specs run on: a fresh database with the platform's and the
 * limits' tables, its pool and event store, a real SMTP server and the mailer that sends to it,
 * and the notifications queue in Redis under a prefix of its own. It has the shape the
 * dispatchers take (`queue`, `store`, `pool`, `connectionString`, `logger`).
 */
export interface NotifierHarness {
  redisUrl: string;
  queuePrefix: string;
  logger: Logger;
  database: TestDatabase;
  /** The database's URL. */
  connectionString: string;
  pool: Pool;
  store: EventStore;
  smtp: TestSmtpServer;
  mailer: Mailer;
  queue: Queue<NotificationJob>;
  /** Starts the worker of the notifications queue; `close` closes it. */
  startWorker(options: NotifierWorkerOptions): Worker<NotificationJob>;
  /**
   * Closes what the harness opened (the worker first), drops the database and deletes the keys
   * under the queue prefix. What a spec started on the harness, it stops before this.
   */
  close(): Promise<void>;
}

/** Opens a harness; should one part fail to open, what was opened before it is closed again. */
export async function openNotifierHarness(): Promise<NotifierHarness> {
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const queuePrefix = `wagers-test-${randomBytes(4).toString('hex')}`;
  /** What to undo, in the order things were opened; `close` undoes them last first. */
  const opened: (() => Promise<void> | void)[] = [];
  const close = async () => {
    for (const undo of opened.splice(0).reverse()) await undo();
  };
  try {
    // Undone last of all: a worker closing can still write its queue's bookkeeping to Redis.
    opened.push(() => dropQueueKeys(redisUrl, queuePrefix));
    const database = await createTestDatabase();
    opened.push(() => database.drop());
    await migrate(database.url, [platformMigrations, limitMigrations]);
    const pool = createPool(database.url, 6);
    opened.push(() => pool.end());
    const store = createPostgresEventStore(pool, { connectionString: database.url });
    opened.push(() => store.close());
    const smtp = await startTestSmtpServer();
    opened.push(() => smtp.stop());
    const mailer = createMailer({
      smtpUrl: smtp.url,
      from: 'Wagers <no-reply@wagers.local>',
      pool,
    });
    opened.push(() => mailer.close());
    const queue = new Queue<NotificationJob>(NOTIFICATIONS_QUEUE, {
      connection: redisProducerConnection(redisUrl),
      prefix: queuePrefix,
    });
    opened.push(() => queue.close());
    return {
      redisUrl,
      queuePrefix,
      logger,
      database,
      connectionString: database.url,
      pool,
      store,
      smtp,
      mailer,
      queue,
      startWorker({ notices, ...options }) {
        const worker = startNotificationWorker({
          ...options,
          connection: redisConnection(redisUrl),
          mailer,
          notices: noticeDelivery({
            store: notices.store ?? store,
            mailer,
            sms: notices.sms,
            logger,
            publicUrl: () => PUBLIC_URL,
            signingSecret: undefined,
            limits: rateLimits(pool, notices.now ?? (() => new Date())),
            queueText: queueTextOn(queue),
          }),
          logger,
          prefix: queuePrefix,
        });
        opened.push(() => worker.close());
        return worker;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
