import type { Queue } from 'bullmq';
import { defaultJobOptions, type NotificationJob } from './jobs.ts';

/**
 * Sign-in links go straight onto the queue, not through the event log: the log never holds a
 * token. The job is removed once sent so the token does not linger in Redis either.
 */
export function queuedSignInMailer(queue: Queue<NotificationJob>) {
  return {
    async sendSignInLink(to: string, link: string): Promise<void> {
      await queue.add(
        'sign-in-link',
        { kind: 'sign-in-link', to, link },
        { ...defaultJobOptions, removeOnComplete: true, removeOnFail: { age: 3600 } },
      );
    },
  };
}
