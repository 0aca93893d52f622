import { Queue, Worker } from 'bullmq';
import { redisConnection, redisProducerConnection } from '@wagers/platform/redis';
import type { HostContext } from '@wagers/platform/service-host';
import { runProjector } from '@wagers/platform/projections/runner';
import { logFailedAttempt } from '../delivery-failure.ts';
import { backoffStrategy } from '../jobs.ts';
import type { Mailer } from '../mailer.ts';
import { deadlineAction } from './act.ts';
import { DEADLINES_QUEUE, type DeadlineJob } from './jobs.ts';
import { DEADLINES_SCHEDULER_NAME, deadlinesScheduler, promoteDueDeadlines } from './scheduler.ts';

export type DeadlinesContext = Pick<
  HostContext,
  'store' | 'pool' | 'databaseUrl' | 'redisUrl' | 'runtime' | 'logger' | 'publicUrl'
> & {
  queuePrefix: string;
  signingSecret: string | undefined;
  /** Deadlines run at once in this process; 0 runs no worker here. */
  concurrency: number;
  /** How often the clock is compared with the delayed jobs after the catch-up at start. */
  catchUpIntervalMs: number;
};

export interface RunningDeadlines {
  queue: Queue<DeadlineJob>;
  /** Promotes every delayed job due by the clock; resolves with how many. */
  catchUp(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * A bet's reminders and its standing report: the scheduler that keeps them on the queue as
 * delayed jobs, the worker that runs them when due, and the catch-up by the clock.
 */
export function startDeadlines(context: DeadlinesContext, mailer: Mailer): RunningDeadlines {
  const { store, runtime, logger } = context;
  const log = logger.child({ component: DEADLINES_SCHEDULER_NAME });
  const queue = new Queue<DeadlineJob>(DEADLINES_QUEUE, {
    connection: redisProducerConnection(context.redisUrl),
    prefix: context.queuePrefix,
  });
  queue.on('error', (error) => log.debug({ err: error }, 'deadlines queue error'));
  const scheduler = runProjector(deadlinesScheduler(queue, store, runtime), {
    store,
    pool: context.pool,
    connectionString: context.databaseUrl,
    logger: log,
  });
  const act = deadlineAction({
    store,
    mailer,
    runtime,
    logger,
    publicUrl: context.publicUrl,
    signingSecret: context.signingSecret,
  });
  const worker =
    context.concurrency > 0
      ? new Worker<DeadlineJob>(DEADLINES_QUEUE, act, {
          connection: redisConnection(context.redisUrl),
          prefix: context.queuePrefix,
          concurrency: context.concurrency,
          settings: { backoffStrategy },
        })
      : null;
  worker?.on('failed', (job, error) =>
    logFailedAttempt(log, { jobId: job?.id, attempt: job?.attemptsMade }, error, 'deadline'),
  );
  worker?.on('error', (error) => log.error({ err: error }, 'deadlines worker error'));

  const catchUp = async () => {
    const promoted = await promoteDueDeadlines(queue, runtime.now());
    if (promoted > 0) log.info({ promoted }, 'deadlines due by the clock promoted');
    return promoted;
  };
  const tick = () => void catchUp().catch((error) => log.warn({ err: error }, 'catch-up failed'));
  tick();
  const timer = setInterval(tick, context.catchUpIntervalMs);
  timer.unref();

  return {
    queue,
    catchUp,
    async stop() {
      clearInterval(timer);
      await scheduler.stop();
      await worker?.close();
      await queue.close();
    },
  };
}
