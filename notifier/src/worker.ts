import { UnrecoverableError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { Logger } from '@wagers/platform/logger';
import { logFailedAttempt } from './delivery-failure.ts';
import type { InviteDeliverer } from './invite-delivery.ts';
import { backoffStrategy, NOTIFICATIONS_QUEUE, type NotificationJob } from './jobs.ts';
import type { Mailer } from './mailer.ts';
import type { SmsSender } from './sms.ts';
import { signInEmail } from './templates/sign-in.ts';

export interface WorkerDeps {
  connection: ConnectionOptions;
  mailer: Mailer;
  sms?: SmsSender;
  /** Delivers invite jobs; without it they fail for good. */
  invites?: InviteDeliverer;
  /** Delivers notice jobs; without it they fail for good. */
  notices?: (job: Extract<NotificationJob, { kind: 'notice' }>) => Promise<void>;
  logger: Logger;
  queueName?: string;
  prefix?: string;
  /** Jobs run at once. Default 4. */
  concurrency?: number;
  /** How long a job stays locked to this worker without a renewal; a dead worker's jobs wait this long. Default 30000 ms. */
  lockDuration?: number;
  /** How often the worker looks for jobs whose worker died. Default 30000 ms. */
  stalledInterval?: number;
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
        case 'invite':
          if (!deps.invites) throw new UnrecoverableError('No invite delivery is configured');
          await deps.invites({
            code: data.code,
            deliveryId: data.deliveryId,
            isLastAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1),
            alreadySent: data.sent === true,
            markSent: () => job.updateData({ ...data, sent: true }),
          });
          break;
        case 'notice':
          if (!deps.notices) throw new UnrecoverableError('No notice delivery is configured');
          await deps.notices(data);
          break;
        default: {
          const unknown: never = data;
          throw new UnrecoverableError(`Unknown job ${JSON.stringify(unknown)}`);
        }
      }
      log.info(
        { jobId: job.id, kind: data.kind, attempt: job.attemptsMade + 1 },
        'notification delivered',
      );
    },
    {
      connection: deps.connection,
      prefix: deps.prefix,
      concurrency: deps.concurrency ?? 4,
      settings: { backoffStrategy },
      ...(deps.lockDuration ? { lockDuration: deps.lockDuration } : {}),
      ...(deps.stalledInterval ? { stalledInterval: deps.stalledInterval } : {}),
    },
  );
  worker.on('failed', (job, error) => {
    logFailedAttempt(log, { jobId: job?.id, attempt: job?.attemptsMade }, error, 'notification');
  });
  worker.on('error', (error) => log.error({ err: error }, 'notifier worker error'));
  return worker;
}
