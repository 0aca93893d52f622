import { UnrecoverableError } from 'bullmq';
import { DELETED_USER_NAME, displayName } from '@wagers/contracts/api/display';
import { betEventSchemas, betStream } from '@wagers/contracts/events/bet';
import { isOptedOut } from '@wagers/domain/invites/sms-opt-out';
import {
  emailsKind,
  preferencesAggregate,
  textsKind,
} from '@wagers/domain/notifications/preferences';
import { unsubscribeToken } from '@wagers/domain/notifications/unsubscribe-token';
import { userAggregate, type UserState } from '@wagers/domain/users/user';
import { load } from '@wagers/platform/aggregate';
import { withStreamsRead } from '@wagers/platform/event-store/page-streams';
import { phoneDigest } from '@wagers/platform/event-store/sealed-fields';
import type { EventStore } from '@wagers/platform/event-store/port';
import { RateLimitedError, type RateLimits } from '@wagers/platform/limits/rate-limits';
import type { Logger } from '@wagers/platform/logger';
import { deliveryFailureReason } from '../delivery-failure.ts';
import { isPermanent } from '../invite-delivery.ts';
import type { NotificationJob } from '../jobs.ts';
import type { Mailer } from '../mailer.ts';
import type { SmsSender } from '../sms.ts';
import { noticeEmail, noticeSms, type NoticeMessage } from '../templates/notice.ts';

export interface NoticeDeliveryDeps {
  store: EventStore;
  mailer: Mailer;
  sms: SmsSender;
  logger: Logger;
  publicUrl: () => string;
  signingSecret: string | undefined;
  /** The per-number daily cap on notification texts (`texts-per-number`). */
  limits: RateLimits;
  /**
   * Queues the text message of a notice (job id from `textJobId`), for the person who wants it
   * texted; adding it again is a no-op while the job is kept.
   */
  queueText: (job: NoticeJob & { channel: 'sms' }) => Promise<void>;
}

export type NoticeJob = Extract<NotificationJob, { kind: 'notice' }>;

async function betTitle(store: EventStore, betId: string): Promise<string | null> {
  const [first] = await store.readStream(betStream(betId), { maxCount: 1 });
  return first?.type === 'BetProposed' ? betEventSchemas.BetProposed.parse(first.data).title : null;
}

/**
 * Tells one person about one event: the notice's job sends the email and queues the text message
 * as a job of its own; that job texts. Everything is checked at sending time, so an unsubscribe,
 * a withdrawn consent or a STOP reply stops what is already queued: a text goes only to the
 * user's number, with their consent, for a kind they chose, and never to a number that said STOP.
 */
export function noticeDelivery(deps: NoticeDeliveryDeps) {
  const log = deps.logger.child({ component: 'notice-delivery' });

  async function message(store: EventStore, job: NoticeJob): Promise<NoticeMessage> {
    const actor = job.actorId ? await load(store, userAggregate, job.actorId) : null;
    const base = deps.publicUrl();
    return {
      kind: job.notification,
      eventType: job.eventType,
      actorName: actorName(actor),
      betTitle: job.betId ? await betTitle(store, job.betId) : null,
      link: job.betId ? `${base}/bets/${job.betId}` : `${base}/friends`,
    };
  }

  async function text(store: EventStore, phone: string, job: NoticeJob): Promise<void> {
    if (await isOptedOut(store, phone)) {
      log.info({ eventId: job.eventId, kind: job.notification }, 'notice not texted: STOP');
      return;
    }
    // Numbers are not verified: a cap per number and day bounds what anyone can have texted to a
    // number that is not theirs. A retry of this job counts once.
    try {
      await deps.limits.consumeOnce(`${job.eventId}_${job.recipientId}_sms`, {
        rule: 'texts-per-number',
        key: phoneDigest(phone),
      });
    } catch (error) {
      if (!(error instanceof RateLimitedError)) throw error;
      log.warn(
        { eventId: job.eventId, recipientId: job.recipientId, kind: job.notification },
        'notice not texted: the number has had its texts for today',
      );
      return;
    }
    try {
      await deps.sms.send(phone, noticeSms(await message(store, job)));
    } catch (error) {
      // A refused number (invalid, unsubscribed at the carrier) will not take it on a retry.
      if (isPermanent(error)) throw new UnrecoverableError(deliveryFailureReason(error));
      throw error;
    }
  }

  return async (job: NoticeJob): Promise<void> => {
    // Whom to tell, what they chose, who acted and on which bet: one read.
    const store = await withStreamsRead(deps.store, [
      userAggregate.stream(job.recipientId),
      preferencesAggregate.stream(job.recipientId),
      ...(job.actorId ? [userAggregate.stream(job.actorId)] : []),
      ...(job.betId ? [betStream(job.betId)] : []),
    ]);
    const [recipient, preferences] = await Promise.all([
      load(store, userAggregate, job.recipientId),
      load(store, preferencesAggregate, job.recipientId),
    ]);
    if (recipient.status !== 'registered') return;
    if (job.channel === 'sms') {
      if (!recipient.phone || !recipient.smsConsent || !textsKind(preferences, job.notification))
        return;
      await text(store, recipient.phone, job);
      return;
    }
    // The text first: an email that fails and is retried does not hold it back. Its job checks
    // everything again when it runs.
    if (recipient.phone && recipient.smsConsent && textsKind(preferences, job.notification))
      await deps.queueText({ ...job, channel: 'sms' });
    if (recipient.email === null) return;
    if (!emailsKind(preferences, job.notification)) {
      log.info({ eventId: job.eventId, kind: job.notification }, 'notice not wanted by email');
      return;
    }
    const token = unsubscribeToken(deps.signingSecret, job.recipientId, job.notification);
    await deps.mailer.send(
      noticeEmail(recipient.email, {
        ...(await message(store, job)),
        unsubscribeLink: `${deps.publicUrl()}/api/notifications/unsubscribe?token=${token}`,
      }),
    );
  };
}

/** Who acted, as the email names them: "Deleted user" for an account deleted since. */
function actorName(actor: UserState | null): string {
  if (actor?.status === 'registered') return displayName(actor);
  return actor?.status === 'deleted' ? DELETED_USER_NAME : 'Wagers';
}
