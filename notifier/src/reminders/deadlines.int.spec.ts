import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { betStream } from '@wagers/contracts/events/bet';
import { betRemindersStream } from '@wagers/contracts/events/reminders';
import { comparePositions } from '@wagers/contracts/position';
import type { BetCommand } from '@wagers/domain/bets/commands';
import { betAggregate } from '@wagers/domain/bets/decide';
import { preferencesAggregate } from '@wagers/domain/notifications/preferences';
import { readUnsubscribeToken } from '@wagers/domain/notifications/unsubscribe-token';
import { userAggregate } from '@wagers/domain/users/user';
import { handle } from '@wagers/platform/aggregate';
import { readBuilds } from '@wagers/platform/projections/checkpoints';
import type { RunningProjector } from '@wagers/platform/projections/runner';
import { redisConnection } from '@wagers/platform/redis';
import type { Runtime } from '@wagers/platform/runtime';
import { eventually } from '@wagers/test-support/log';
import type { ReceivedMail } from '@wagers/test-support/smtp';
import { createSmsSender } from '../sms.ts';
import { startNotificationsDispatcher } from '../notifications/dispatcher.ts';
import { openNotifierHarness, PUBLIC_URL, type NotifierHarness } from '../test-support/harness.ts';
import { flakyStore } from '../testing/flaky-store.ts';
import { DEADLINES_QUEUE, deadlineJobId, deadlineJobOptions } from './jobs.ts';
import { startDeadlines, type RunningDeadlines } from './start.ts';

/**
 * Reminders and standing reports through real PostgreSQL, Redis (BullMQ) and SMTP, on a clock the
 * test moves: what each person receives, and how often.
 */
const SIGNING_SECRET = 'a-test-signing-secret-of-32-characters!';

let harness: NotifierHarness;
let noticeDispatcher: RunningProjector;
let deadlines: RunningDeadlines | null = null;
/** What the notifier's deadlines use: the real store, whose appends a test can make fail once. */
let flaky: ReturnType<typeof flakyStore>;

let clock = new Date('2030-06-15T12:00:00.000Z');
const runtime: Runtime = { now: () => clock, newId: randomUUID };
const later = (hours: number) => {
  clock = new Date(clock.getTime() + hours * 3600_000);
};
/** The calendar date (UTC) `days` after the clock's. */
const dateIn = (days: number) =>
  new Date(clock.getTime() + days * 24 * 3600_000).toISOString().slice(0, 10);

const ann = { id: randomUUID(), email: 'ann@example.com' };
const ben = { id: randomUUID(), email: 'ben@example.com' };

function startNotifier() {
  deadlines = startDeadlines(
    {
      store: flaky.store,
      pool: harness.pool,
      databaseUrl: harness.connectionString,
      redisUrl: harness.redisUrl,
      runtime,
      logger: harness.logger,
      publicUrl: () => PUBLIC_URL,
      queuePrefix: harness.queuePrefix,
      signingSecret: SIGNING_SECRET,
      concurrency: 2,
      catchUpIntervalMs: 3_600_000,
    },
    harness.mailer,
  );
  return deadlines;
}

async function stopNotifier() {
  await deadlines?.stop();
  deadlines = null;
}

/** Waits until the deadlines and notifications followers have read the whole log. */
async function settled() {
  const head = await harness.store.headPosition();
  for (let tries = 0; ; tries++) {
    const rows = (await readBuilds(harness.pool)).filter((row) => row.name.startsWith('notifier-'));
    const behind = rows.filter((row) => !row.position || comparePositions(row.position, head!) < 0);
    if (rows.length === 2 && behind.length === 0) return;
    if (tries > 1000) throw new Error('followers did not catch up');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const context = (actorId: string | null) => ({
  actorId,
  correlationId: randomUUID(),
  now: runtime.now(),
  newId: randomUUID,
});

async function bet(command: BetCommand & { data: { actorId?: string } }, betId: string) {
  const actor = command.type === 'ProposeBet' ? command.data.creatorId : command.data.actorId;
  await handle(harness.store, betAggregate, betId, command, context(actor ?? null));
}

/** Ann proposes a bet to Ben, who accepts it. */
async function activeBet(
  title: string,
  options: { endDate?: string; reportStands?: boolean; accept?: boolean } = {},
) {
  const betId = randomUUID();
  await bet(
    {
      type: 'ProposeBet',
      data: {
        betId,
        creatorId: ann.id,
        opponentId: ben.id,
        opponentIsFriend: true,
        opponentDeleted: false,
        creatorEmail: ann.email,
        creatorPhone: null,
        inviteePhoneOptedOut: false,
        inviteCode: null,
        requestHash: null,
        inviteeEmail: null,
        inviteePhone: null,
        smsConsent: false,
        title,
        description: 'A bet between friends',
        wagerType: 'custom',
        wagerAmountCents: null,
        wagerDescription: 'Coffee',
        endDate: options.endDate ?? null,
        validationMode: 'both',
        reportStands: options.reportStands ?? false,
        proposedAt: runtime.now().toISOString(),
      },
    },
    betId,
  );
  if (options.accept !== false) await bet({ type: 'AcceptBet', data: { actorId: ben.id } }, betId);
  return betId;
}

const report = (betId: string, actorId: string, resolution: 'creator_won' | 'opponent_won') =>
  bet(
    {
      type: 'SubmitResolution',
      data: { actorId, resolution, submittedAt: runtime.now().toISOString() },
    },
    betId,
  );

const mailsAbout = (title: string, to?: string) =>
  harness.smtp.received.filter(
    (mail: ReceivedMail) => mail.subject.includes(`"${title}"`) && (!to || mail.to.includes(to)),
  );
const subjectsAbout = (title: string, to: string) =>
  mailsAbout(title, to)
    .map((mail) => mail.subject)
    .sort();

/** The reminders (not the other notices) one person got about one bet. */
const remindersAbout = (title: string, to: string) =>
  subjectsAbout(title, to).filter((subject) => /end date|is waiting|Still waiting/.test(subject));

const eventTypes = async (stream: string) =>
  (await harness.store.readStream(stream)).map((event) => event.type);

/**
 * A later reminder of another bet reaches Ann: everything queued before it has run, so whatever
 * has not arrived by then never will.
 */
async function sentinel() {
  const title = `Sentinel ${randomUUID().slice(0, 8)}`;
  const betId = await activeBet(title, { endDate: dateIn(0) });
  await settled();
  later(24);
  await deadlines!.catchUp();
  await harness.smtp.waitFor(
    () => mailsAbout(title, ann.email).some((mail) => mail.subject.includes('end date')),
    `the reminder of ${title}`,
  );
  await report(betId, ann.id, 'creator_won');
  await report(betId, ben.id, 'creator_won');
}

beforeAll(async () => {
  harness = await openNotifierHarness();
  flaky = flakyStore(harness.store);
  for (const [person, firstName] of [
    [ann, 'Ann'],
    [ben, 'Ben'],
  ] as const) {
    await handle(
      harness.store,
      userAggregate,
      person.id,
      { type: 'RegisterUser', data: { userId: person.id, email: person.email } },
      context(person.id),
    );
    await handle(
      harness.store,
      userAggregate,
      person.id,
      { type: 'UpdateProfile', data: { userId: person.id, firstName, lastName: 'Lee' } },
      context(person.id),
    );
  }
  // How both sides hear that a report stood: the notifications the notifier sends anyway.
  noticeDispatcher = startNotificationsDispatcher(harness);
  harness.startWorker({
    // Reminders are emails; a text would land in the development outbox.
    notices: { sms: createSmsSender({}, harness.pool), now: runtime.now },
  });
  startNotifier();
});

afterAll(async () => {
  const queue = deadlines?.queue;
  await queue?.obliterate({ force: true });
  await stopNotifier();
  await noticeDispatcher?.stop();
  await harness?.close();
});

describe('reminders to report', () => {
  it('on the end date, both sides are reminded, once each, with a one-click unsubscribe', async () => {
    const betId = await activeBet('Rain on Sunday', { endDate: '2030-06-20' });
    await settled();
    const job = await deadlines!.queue.getJob(deadlineJobId(betId, `end-date-${ben.id}`));
    expect(await job?.getState()).toBe('delayed');

    later(4 * 24); // 2030-06-19T12:00Z: not yet.
    await deadlines!.catchUp();
    later(24); // Noon UTC on the end date.
    await deadlines!.catchUp();
    await harness.smtp.waitFor(
      () => mailsAbout('Rain on Sunday').filter((m) => m.subject.includes('end date')).length === 2,
      'both end-date reminders',
    );

    await deadlines!.catchUp();
    await stopNotifier();
    startNotifier();
    await sentinel();
    for (const person of [ann, ben])
      expect(remindersAbout('Rain on Sunday', person.email)).toEqual([
        '"Rain on Sunday" has reached its end date: who won?',
      ]);
    const mail = mailsAbout('Rain on Sunday', ben.email).find((m) =>
      m.subject.includes('end date'),
    )!;
    expect(mail.text).toContain(`${PUBLIC_URL}/bets/${betId}`);
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.headers['list-unsubscribe']).toContain('/api/notifications/unsubscribe?token=');
    expect(await eventTypes(betRemindersStream(betId))).toEqual(['ReminderSent', 'ReminderSent']);
  });

  it('the side that has not answered is reminded 48 hours after the report and after 7 days', async () => {
    const betId = await activeBet('Snow in May');
    await report(betId, ben.id, 'opponent_won');
    await settled();
    later(47);
    await deadlines!.catchUp();
    later(1);
    await deadlines!.catchUp();
    await harness.smtp.waitFor(
      () => subjectsAbout('Snow in May', ann.email).some((s) => s.includes('is waiting')),
      'the 48-hour reminder',
    );
    later(5 * 24);
    await deadlines!.catchUp();
    await harness.smtp.waitFor(
      () => subjectsAbout('Snow in May', ann.email).some((s) => s.startsWith('Still waiting')),
      'the 7-day reminder',
    );
    await sentinel();
    expect(remindersAbout('Snow in May', ann.email)).toEqual([
      'Ben Lee is waiting for your report on "Snow in May"',
      'Still waiting for your report on "Snow in May"',
    ]);
    expect(remindersAbout('Snow in May', ben.email)).toEqual([]);
  });

  it('what fell due while the notifier was down is sent once when it starts', async () => {
    const betId = await activeBet('Heat wave', { endDate: dateIn(1) });
    await settled();
    await stopNotifier();
    // While it is down: Ann reports, and the end date and the 48 hours both pass.
    await report(betId, ann.id, 'creator_won');
    later(3 * 24);
    startNotifier();
    await harness.smtp.waitFor(
      () => remindersAbout('Heat wave', ben.email).length === 2,
      'both reminders that fell due meanwhile',
    );
    await stopNotifier();
    startNotifier();
    await sentinel();
    expect(remindersAbout('Heat wave', ben.email)).toEqual([
      '"Heat wave" has reached its end date: who won?',
      'Ann Lee is waiting for your report on "Heat wave"',
    ]);
    expect(remindersAbout('Heat wave', ann.email)).toEqual([]);
  });

  it('a bet that completes, or is deleted, has its pending reminders cancelled and never sent', async () => {
    const endDate = dateIn(2);
    const completedId = await activeBet('Fog in London', { endDate });
    const deletedId = await activeBet('Hail in Oslo', { endDate, accept: false });
    await settled();
    const pending = deadlineJobId(completedId, `end-date-${ann.id}`);
    expect(await (await deadlines!.queue.getJob(pending))?.getState()).toBe('delayed');

    await report(completedId, ann.id, 'creator_won');
    await report(completedId, ben.id, 'creator_won');
    await bet({ type: 'DeleteBet', data: { actorId: ann.id } }, deletedId);
    await settled();
    expect(await deadlines!.queue.getJob(pending)).toBeUndefined();
    expect(
      (await deadlines!.queue.getDelayed()).filter((job) =>
        ([completedId, deletedId] as string[]).includes(job.data.betId),
      ),
    ).toEqual([]);

    later(5 * 24);
    await deadlines!.catchUp();
    await sentinel();
    for (const title of ['Fog in London', 'Hail in Oslo'])
      for (const person of [ann, ben]) expect(remindersAbout(title, person.email)).toEqual([]);
  });
});

describe('a reminder whose record fails', () => {
  it('is recorded on the retry and not sent again', async () => {
    const betId = await activeBet('Sleet in June', { endDate: dateIn(1) });
    await settled();
    // The first record of a reminder of this bet fails once, after its email went out.
    flaky.failNextAppend.add(betRemindersStream(betId));
    later(24);
    await deadlines!.catchUp();
    await eventually(
      async () =>
        (await eventTypes(betRemindersStream(betId))).filter((t) => t === 'ReminderSent').length ===
        2,
      'both reminders recorded',
    );
    expect(flaky.failNextAppend.size, 'a record failed once').toBe(0);
    await sentinel();
    for (const person of [ann, ben])
      expect(remindersAbout('Sleet in June', person.email)).toEqual([
        '"Sleet in June" has reached its end date: who won?',
      ]);
    expect(await eventTypes(betRemindersStream(betId))).toEqual(['ReminderSent', 'ReminderSent']);
  });
});

describe('a deadline that failed for good', () => {
  it('is tried again when its bet is reconciled again, and then sent once', async () => {
    const betId = await activeBet('Drizzle in August', { endDate: dateIn(1) });
    await settled();
    // Ann's end-date reminder as a job whose attempts ran out (the mail server down all along).
    const id = deadlineJobId(betId, `end-date-${ann.id}`);
    const armed = await deadlines!.queue.getJob(id);
    await armed!.remove();
    await deadlines!.queue.add('reminder', armed!.data, {
      ...deadlineJobOptions,
      jobId: id,
      attempts: 1,
      delay: 24 * 3600_000,
    });
    harness.smtp.refusing = true;
    later(24);
    await deadlines!.catchUp();
    await eventually(
      async () => (await deadlines!.queue.getJobState(id)) === 'failed',
      'the reminder failed for good',
    );
    harness.smtp.refusing = false;
    // The mail server is back; the bet's next event (Ben reports) reconciles it.
    await report(betId, ben.id, 'opponent_won');
    await settled();
    await harness.smtp.waitFor(
      () => remindersAbout('Drizzle in August', ann.email).length === 1,
      "Ann's end-date reminder",
    );
    await sentinel();
    expect(remindersAbout('Drizzle in August', ann.email)).toEqual([
      '"Drizzle in August" has reached its end date: who won?',
    ]);
  });
});

describe('reminders and each person’s email preferences', () => {
  it('someone who switched reminders off gets none; the other side still does', async () => {
    const mail = mailsAbout('Rain on Sunday', ben.email).find((m) =>
      m.subject.includes('end date'),
    )!;
    const link = /^<(.+)>$/.exec(mail.headers['list-unsubscribe'] ?? '')?.[1] ?? '';
    const token = new URL(link).searchParams.get('token') ?? '';
    expect(readUnsubscribeToken(SIGNING_SECRET, token)).toEqual({
      userId: ben.id,
      kind: 'reminders',
    });
    await handle(
      harness.store,
      preferencesAggregate,
      ben.id,
      {
        type: 'SetEmailNotifications',
        data: { userId: ben.id, kind: 'reminders', email: false, via: 'unsubscribe_link' },
      },
      context(ben.id),
    );
    await activeBet('Tennis on Friday', { endDate: dateIn(0) });
    await settled();
    later(24);
    await deadlines!.catchUp();
    await harness.smtp.waitFor(
      () => remindersAbout('Tennis on Friday', ann.email).length === 1,
      'Ann’s reminder',
    );
    await sentinel();
    expect(remindersAbout('Tennis on Friday', ben.email)).toEqual([]);
    await handle(
      harness.store,
      preferencesAggregate,
      ben.id,
      {
        type: 'SetEmailNotifications',
        data: { userId: ben.id, kind: 'reminders', email: true, via: 'profile' },
      },
      context(ben.id),
    );
  });
});

describe('the creator’s report stands', () => {
  it('after 7 days without an answer, once, and both sides are told', async () => {
    const betId = await activeBet('Marathon under 4h', { reportStands: true });
    await report(betId, ann.id, 'creator_won');
    await settled();
    later(48);
    await deadlines!.catchUp();
    await harness.smtp.waitFor(
      () => subjectsAbout('Marathon under 4h', ben.email).some((s) => s.includes('is waiting')),
      'the 48-hour reminder',
    );
    const reminder = mailsAbout('Marathon under 4h', ben.email).find((m) =>
      m.subject.includes('is waiting'),
    )!;
    expect(reminder.text).toMatch(
      /Ann Lee reported the outcome of "Marathon under 4h" on \w+ \d+, \d{4} at \d+:\d\d [AP]M UTC\./,
    );
    expect(reminder.text).toContain("Ann Lee's report stands");

    later(5 * 24 - 1);
    await deadlines!.catchUp();
    later(1);
    await deadlines!.catchUp();
    const stood = (s: string) => s.includes('the reported outcome stands');
    await harness.smtp.waitFor(
      () =>
        subjectsAbout('Marathon under 4h', ann.email).some(stood) &&
        subjectsAbout('Marathon under 4h', ben.email).some(stood),
      'both sides told the report stood',
    );
    await deadlines!.catchUp();
    await stopNotifier();
    startNotifier();
    await sentinel();

    const types = await eventTypes(betStream(betId));
    expect(types.filter((type) => type === 'ReportStood')).toHaveLength(1);
    expect(types.at(-1)).toBe('BetCompleted');
    for (const person of [ann, ben]) {
      const subjects = subjectsAbout('Marathon under 4h', person.email);
      expect(subjects.filter(stood)).toHaveLength(1);
      expect(subjects.filter((s) => s.endsWith('is complete'))).toEqual([]);
    }
    expect(remindersAbout('Marathon under 4h', ben.email)).toEqual([
      'Ann Lee is waiting for your report on "Marathon under 4h"',
    ]);
  });

  it('not when the opponent answered in time', async () => {
    const betId = await activeBet('Chess final', { reportStands: true });
    await report(betId, ann.id, 'creator_won');
    await settled();
    later(3 * 24);
    await report(betId, ben.id, 'opponent_won');
    await settled();
    later(5 * 24);
    await deadlines!.catchUp();
    await sentinel();
    expect(await eventTypes(betStream(betId))).not.toContain('ReportStood');
    expect(await eventTypes(betStream(betId))).not.toContain('BetCompleted');
  });
});

describe('replaying the log', () => {
  it('from the start, with the finished jobs gone, sends nothing again', async () => {
    const before = harness.smtp.received.length;
    await stopNotifier();
    await harness.pool.query(
      `DELETE FROM projection_checkpoints WHERE name = 'notifier-deadlines'`,
    );
    const queue = new Queue(DEADLINES_QUEUE, {
      connection: redisConnection(harness.redisUrl),
      prefix: harness.queuePrefix,
    });
    await queue.clean(0, 10_000, 'completed');
    await queue.close();
    startNotifier();
    await settled();
    // Bets still waiting for an answer had their reminders put back on the queue, due at once.
    expect(
      await deadlines!.queue.getJobCountByTypes('completed', 'waiting', 'active', 'delayed'),
    ).toBeGreaterThan(0);
    await sentinel();
    const again = harness.smtp.received
      .slice(before)
      .filter((mail) => /end date|is waiting|Still waiting/.test(mail.subject))
      .filter((mail) => !mail.subject.includes('Sentinel'));
    expect(again.map((mail) => mail.subject)).toEqual([]);
  });
});
