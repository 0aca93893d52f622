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

/** Retries with exponential backoff (1 s, 2 s, 4 s ...) before a job lands in the failed set. */
export const defaultJobOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: false,
} as const;

/**
 * Invite jobs stay a week after completing: while a job is kept, adding its id again (a replay
 * of the log) is a no-op. Past that the worker still skips a delivery the invite stream records.
 */
export const inviteJobOptions = {
  ...defaultJobOptions,
  removeOnComplete: { age: 7 * 24 * 3600 },
} as const;
