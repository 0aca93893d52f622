import type { Queue } from 'bullmq';
import { unavailable } from '@wagers/platform/errors';
import { signInJobOptions, type NotificationJob } from './jobs.ts';

/**
 * Sign-in links go straight onto the queue, not through the event log: the log never holds a
 * token. The job is removed once sent so the token does not linger in Redis either. Without the
 * queue the link cannot be kept anywhere, so the caller hears at once (503) and asks again.
 */
export function queuedSignInMailer(queue: Queue<NotificationJob>) {
  return {
    async sendSignInLink(to: string, link: string): Promise<void> {
      try {
        await queue.add('sign-in-link', { kind: 'sign-in-link', to, link }, signInJobOptions);
      } catch {
        throw unavailable(
          'Sign-in emails cannot be sent right now. Please try again in a minute.',
          30,
        );
      }
    },
  };
}
