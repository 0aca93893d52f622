import { DELETED_USER_NAME, displayName } from '@wagers/contracts/api/display';
import { betEventSchemas, betStream } from '@wagers/contracts/events/bet';
import { emailsKind, preferencesAggregate } from '@wagers/domain/notifications/preferences';
import { unsubscribeToken } from '@wagers/domain/notifications/unsubscribe-token';
import { userAggregate, type UserState } from '@wagers/domain/users/user';
import { load } from '@wagers/platform/aggregate';
import type { EventStore } from '@wagers/platform/event-store/port';
import type { Logger } from '@wagers/platform/logger';
import type { NotificationJob } from '../jobs.ts';
import type { Mailer } from '../mailer.ts';
import { noticeEmail } from '../templates/notice.ts';

export interface NoticeDeliveryDeps {
  store: EventStore;
  mailer: Mailer;
  logger: Logger;
  publicUrl: () => string;
  signingSecret: string | undefined;
}

type NoticeJob = Extract<NotificationJob, { kind: 'notice' }>;

async function betTitle(store: EventStore, betId: string): Promise<string | null> {
  const [first] = await store.readStream(betStream(betId), { maxCount: 1 });
  return first?.type === 'BetProposed' ? betEventSchemas.BetProposed.parse(first.data).title : null;
}

/**
 * Emails one person about one event, unless they switched that kind off (checked at sending
 * time, so an unsubscribe stops what is already queued).
 */
export function noticeDelivery(deps: NoticeDeliveryDeps) {
  const log = deps.logger.child({ component: 'notice-delivery' });
  return async (job: NoticeJob): Promise<void> => {
    const [recipient, preferences] = await Promise.all([
      load(deps.store, userAggregate, job.recipientId),
      load(deps.store, preferencesAggregate, job.recipientId),
    ]);
    if (recipient.status !== 'registered' || recipient.email === null) return;
    if (!emailsKind(preferences, job.notification)) {
      log.info({ eventId: job.eventId, kind: job.notification }, 'notice not wanted by email');
      return;
    }
    const actor = job.actorId ? await load(deps.store, userAggregate, job.actorId) : null;
    const base = deps.publicUrl();
    const token = unsubscribeToken(deps.signingSecret, job.recipientId, job.notification);
    await deps.mailer.send(
      noticeEmail(recipient.email, {
        kind: job.notification,
        eventType: job.eventType,
        actorName: actorName(actor),
        betTitle: job.betId ? await betTitle(deps.store, job.betId) : null,
        link: job.betId ? `${base}/bets/${job.betId}` : `${base}/friends`,
        unsubscribeLink: `${base}/api/notifications/unsubscribe?token=${token}`,
      }),
    );
  };
}

/** Who acted, as the email names them: "Deleted user" for an account deleted since. */
function actorName(actor: UserState | null): string {
  if (actor?.status === 'registered') return displayName(actor);
  return actor?.status === 'deleted' ? DELETED_USER_NAME : 'Wagers';
}
