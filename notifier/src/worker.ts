import { UnrecoverableError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { Logger } from '@wagers/platform/logger';
import { NOTIFICATIONS_QUEUE, type NotificationJob } from './jobs.ts';
import type { Mailer } from './mailer.ts';
import { signInEmail } from './templates/sign-in.ts';

export interface SmsSender {
  send(to: string, body: string): Promise<void>;
}

export interface WorkerDeps {
  connection: ConnectionOptions;
  mailer: Mailer;
  sms?: SmsSender;
  logger: Logger;
  queueName?: string;
  prefix?: string;
  concurrency?: number;
}

/** Delivers queued notifications. A failure is retried with backoff by the queue. */
export function startNotificationWorker(deps: WorkerDeps): Worker<NotificationJob> {
  const log = deps.logger.child({ component: 'notifier-worker' });
  const worker = new Worker<NotificationJob>(
    deps.queueName ?? NOTIFICATIONS_QUEUE,
    async (job: Job<NotificationJob>) => {
      const data = job.data;
      switch (data.kind) {
        case 'sign-in-link':
          await deps.mailer.send(signInEmail(data.to, data.link));
          break;
        case 'email':
          await deps.mailer.send(data);
          break;
        case 'sms':
          if (!deps.sms) throw new UnrecoverableError('No SMS sender is configured');
          await deps.sms.send(data.to, data.body);
          break;
        default: {
          const unknown: never = data;
          throw new UnrecoverableError(`Unknown job ${JSON.stringify(unknown)}`);
        }
      }
      log.info({ jobId: job.id, kind: data.kind, attempt: job.attemptsMade + 1 }, 'notification delivered');
    },
    { connection: deps.connection, prefix: deps.prefix, concurrency: deps.concurrency ?? 4 },
  );
  worker.on('failed', (job, error) => {
    log.warn({ jobId: job?.id, attempt: job?.attemptsMade, err: error }, 'notification attempt failed');
  });
  worker.on('error', (error) => log.error({ err: error }, 'notifier worker error'));
  return worker;
}
