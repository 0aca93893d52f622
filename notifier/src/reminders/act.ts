import { DelayedError, type Job } from 'bullmq';
import { displayName } from '@wagers/contracts/api/display';
import { betAggregate } from '@wagers/domain/bets/decide';
import { deadlineVerdict, type DeadlineState, type Reminder } from '@wagers/domain/bets/deadlines';
import { reminderIsSettled, reminderLogAggregate } from '@wagers/domain/bets/reminder-log';
import { standsAt } from '@wagers/domain/bets/unstick';
import { emailsKind, preferencesAggregate } from '@wagers/domain/notifications/preferences';
import { unsubscribeToken } from '@wagers/domain/notifications/unsubscribe-token';
import { userAggregate } from '@wagers/domain/users/user';
import { handle, load } from '@wagers/platform/aggregate';
import type { CommandContext } from '@wagers/platform/decider';
import { DomainError } from '@wagers/platform/errors';
import type { EventStore } from '@wagers/platform/event-store/port';
import type { Logger } from '@wagers/platform/logger';
import type { Runtime } from '@wagers/platform/runtime';
import type { Mailer } from '../mailer.ts';
import { reminderEmail } from '../templates/reminder.ts';
import { currentDeadlineState } from './bet-deadlines.ts';
import type { DeadlineJob } from './jobs.ts';

export interface DeadlineActionDeps {
  store: EventStore;
  mailer: Mailer;
  runtime: Runtime;
  logger: Logger;
  publicUrl: () => string;
  signingSecret: string | undefined;
}

/**
 * Runs one due deadline: reads the bet again and acts only if the bet still has that deadline and
 * its time has come by the clock (otherwise the job waits again, or ends with nothing done).
 */
export function deadlineAction(deps: DeadlineActionDeps) {
  const log = deps.logger.child({ component: 'deadlines' });

  const context = (): CommandContext => ({
    actorId: null,
    correlationId: deps.runtime.newId(),
    causationId: null,
    now: deps.runtime.now(),
    newId: deps.runtime.newId,
  });

  /** Settles a reminder for good, sent or not: a replay or a retry finds it done. */
  const record = (betId: string, reminder: Reminder, sent: boolean) =>
    handle(
      deps.store,
      reminderLogAggregate,
      betId,
      {
        type: 'RecordReminder',
        data: {
          reminderId: reminder.id,
          userId: reminder.recipientId,
          reason: reminder.reason,
          dueAt: reminder.dueAt,
          sent,
        },
      },
      context(),
    );

  /** Emails one reminder unless it is settled already or its person switched reminders off. */
  async function remind(
    job: Job<DeadlineJob>,
    state: DeadlineState,
    reminder: Reminder,
  ): Promise<void> {
    const { betId } = job.data;
    const settled = await load(deps.store, reminderLogAggregate, betId);
    if (reminderIsSettled(settled, reminder.id)) {
      log.info({ betId, reminder: reminder.id }, 'reminder already settled; not sending again');
      return;
    }
    if (job.data.sent) {
      log.info(
        { betId, reminder: reminder.id },
        'reminder sent by an earlier attempt; recording it',
      );
      await record(betId, reminder, true);
      return;
    }
    const [recipient, preferences] = await Promise.all([
      load(deps.store, userAggregate, reminder.recipientId),
      load(deps.store, preferencesAggregate, reminder.recipientId),
    ]);
    // A deleted account (or one whose key is gone) is reminded of nothing.
    if (recipient.status !== 'registered' || recipient.email === null) return;
    if (!emailsKind(preferences, 'reminders')) {
      log.info({ betId, reminder: reminder.id }, 'reminders not wanted by email');
      await record(betId, reminder, false);
      return;
    }
    const { bet } = state;
    const reporterId =
      reminder.reason === 'end_date'
        ? null
        : bet.creatorId === reminder.recipientId
          ? bet.opponentId
          : bet.creatorId;
    const reporter = reporterId ? await load(deps.store, userAggregate, reporterId) : null;
    const base = deps.publicUrl();
    const token = unsubscribeToken(deps.signingSecret, reminder.recipientId, 'reminders');
    await deps.mailer.send(
      reminderEmail(recipient.email, {
        reason: reminder.reason,
        betTitle: state.title,
        reporterName: reporter?.status === 'registered' ? displayName(reporter) : null,
        reportedAt: state.firstReportAt[reporterId === bet.creatorId ? 'creator' : 'opponent'],
        standsAt: reporterId === bet.creatorId ? standsAt(bet) : null,
        link: `${base}/bets/${betId}`,
        unsubscribeLink: `${base}/api/notifications/unsubscribe?token=${token}`,
      }),
    );
    // Sent: whatever fails from here on must not send it again.
    await job.updateData({ ...job.data, sent: true });
    await record(betId, reminder, true);
  }

  /** The creator's report stands; the bet itself refuses (as a no-op) if it moved on meanwhile. */
  async function applyStandingReport(betId: string) {
    const now = deps.runtime.now();
    try {
      await handle(
        deps.store,
        betAggregate,
        betId,
        { type: 'ApplyStandingReport', data: { now: now.toISOString() } },
        context(),
      );
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      log.warn({ betId, reason: error.message }, 'standing report refused');
    }
  }

  return async (job: Job<DeadlineJob>, token: string | undefined): Promise<void> => {
    const { betId, deadlineId } = job.data;
    const now = deps.runtime.now();
    const state = await currentDeadlineState(deps.store, betId);
    const verdict = deadlineVerdict(state, deadlineId, now);
    if ('nothing' in verdict) {
      log.info({ betId, deadline: deadlineId }, 'deadline no longer stands; nothing to do');
      return;
    }
    if ('waitUntil' in verdict) {
      // Early by the clock (the queue's timer and the clock disagree): wait the rest.
      await job.moveToDelayed(Date.now() + Date.parse(verdict.waitUntil) - now.getTime(), token);
      throw new DelayedError();
    }
    const deadline = verdict.act;
    if (deadline.kind === 'reminder') await remind(job, state, deadline);
    else await applyStandingReport(betId);
  };
}
