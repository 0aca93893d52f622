import type { NotificationKind } from '@wagers/contracts/api/notifications';

/** The notifier's queue and the jobs on it. Every job id is stable, so enqueueing twice is a no-op. */
export const NOTIFICATIONS_QUEUE = 'notifications';

export type NotificationJob =
  | { kind: 'sign-in-link'; to: string; link: string }
  | { kind: 'email'; to: string; subject: string; text: string; html: string }
  | { kind: 'sms'; to: string; body: string }
  /**
   * Deliver invite `code`; `deliveryId` is the InviteSent / InviteResent event asking for it (and
   * the job id). `sent` is set once the message went out, before the delivery is recorded: a
   * retry after a failed record records it and sends nothing again.
   */
  | { kind: 'invite'; code: string; deliveryId: string; sent?: true }
  /**
   * Tell `recipientId` about event `eventId` (of `eventType`), if they still want that kind: by
   * email, queueing the same job with `channel` 'sms' when they want it texted; that one texts.
   */
  | {
      kind: 'notice';
      channel?: 'sms';
      eventId: string;
      eventType: string;
      actorId: string | null;
      recipientId: string;
      notification: NotificationKind;
      betId: string | null;
    };

/** The backoff of every job but sign-in links: `retryDelayMs`, which workers apply by this name. */
export const CAPPED_BACKOFF = 'capped-exponential';
/** The first retry waits a second; each wait doubles up to ten minutes. */
export const FIRST_RETRY_MS = 1000;
export const MAX_RETRY_DELAY_MS = 10 * 60 * 1000;
/** Attempts in all: about six and a half hours of retries before a job lands in the failed set. */
export const RETRY_ATTEMPTS = 48;

/** How long BullMQ waits after the `attemptsMade`-th failed attempt (1, 2 ...) before the next. */
export function retryDelayMs(attemptsMade: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attemptsMade - 1), MAX_RETRY_DELAY_MS);
}

/** From the first attempt to the last, the retries' waits added up. */
export function retryHorizonMs(attempts: number = RETRY_ATTEMPTS): number {
  let total = 0;
  for (let made = 1; made < attempts; made++) total += retryDelayMs(made);
  return total;
}

/** For a worker's `settings.backoffStrategy`: the capped backoff by its name. */
export function backoffStrategy(attemptsMade: number, type?: string): number {
  if (type !== CAPPED_BACKOFF) throw new Error(`Unknown backoff ${String(type)}`);
  return retryDelayMs(attemptsMade);
}

/**
 * A transient failure (a mail server or Twilio down, our credentials being rotated, the store out
 * of reach) is retried for hours: 1 s, 2 s, 4 s ... then every 10 minutes, 48 attempts in all.
 */
export const defaultJobOptions = {
  attempts: RETRY_ATTEMPTS,
  backoff: { type: CAPPED_BACKOFF },
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: false,
} as const;

/**
 * Sign-in links are wanted now and expire soon: 8 attempts from 1 s (about two minutes), as every
 * job had before.
 */
export const signInJobOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: true,
  removeOnFail: { age: 3600 },
} as const;

/**
 * Invite jobs stay a week after completing: while a job is kept, adding its id again (a replay
 * of the log) is a no-op. Past that the worker still skips a delivery the invite stream records.
 */
export const inviteJobOptions = {
  ...defaultJobOptions,
  removeOnComplete: { age: 7 * 24 * 3600 },
} as const;
