import { randomBytes, randomUUID } from 'node:crypto';
import { Queue, type Worker } from 'bullmq';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resolution } from '@wagers/contracts/api/bets';
import { betAggregate } from '@wagers/domain/bets/decide';
import { userAggregate } from '@wagers/domain/users/user';
import { handle } from '@wagers/platform/aggregate';
import { createPool } from '@wagers/platform/db';
import type { CommandContext } from '@wagers/platform/decider';
import { createPostgresEventStore } from '@wagers/platform/event-store/postgres';
import type { EventStore } from '@wagers/platform/event-store/port';
import { rateLimits } from '@wagers/platform/limits/rate-limits';
import { limitMigrations } from '@wagers/platform/limits/migrations';
import { createLogger } from '@wagers/platform/logger';
import { migrate, platformMigrations } from '@wagers/platform/migrations';
import { readBuilds } from '@wagers/platform/projections/checkpoints';
import type { RunningProjector } from '@wagers/platform/projections/runner';
import { redisConnection, redisProducerConnection } from '@wagers/platform/redis';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { eventually } from '@wagers/test-support/log';
import { dropQueueKeys } from '@wagers/test-support/redis';
import { startTestSmtpServer, type TestSmtpServer } from '@wagers/test-support/smtp';
import { NOTIFICATIONS_QUEUE, type NotificationJob } from '../jobs.ts';
import { createMailer, type Mailer } from '../mailer.ts';
import { startNotificationWorker } from '../worker.ts';
import { noticeDelivery } from './deliver-notice.ts';
import {
  NOTIFICATIONS_DISPATCHER_NAME,
  queueTextOn,
  startNotificationsDispatcher,
} from './dispatcher.ts';

/**
 * The notifications dispatcher held back (Redis out of reach, a restart) while a bet moves on:
 * when it catches up, each person is told what a prompt dispatcher would have told them, through
 * real PostgreSQL, Redis (BullMQ) and an SMTP server.
 */
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
const queuePrefix = `wagers-test-${randomBytes(4).toString('hex')}`;

let database: TestDatabase;
let pool: Pool;
let store: EventStore;
let smtp: TestSmtpServer;
let mailer: Mailer;
let queue: Queue<NotificationJob>;
let worker: Worker<NotificationJob>;
let dispatcher: RunningProjector | null = null;

const context = (actorId: string | null): CommandContext => ({
  actorId,
  correlationId: randomUUID(),
  now: new Date(),
  newId: randomUUID,
});

const startDispatcher = () => {
  dispatcher = startNotificationsDispatcher({
    queue,
    store,
    pool,
    connectionString: database.url,
    logger,
  });
};

async function stopDispatcher() {
  await dispatcher?.stop();
  dispatcher = null;
}

beforeAll(async () => {
  database = await createTestDatabase();
  await migrate(database.url, [platformMigrations, limitMigrations]);
  pool = createPool(database.url, 6);
  store = createPostgresEventStore(pool, { connectionString: database.url });
  smtp = await startTestSmtpServer();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Wagers <no-reply@wagers.local>', pool });
  queue = new Queue<NotificationJob>(NOTIFICATIONS_QUEUE, {
    connection: redisProducerConnection(redisUrl),
    prefix: queuePrefix,
  });
  worker = startNotificationWorker({
    connection: redisConnection(redisUrl),
    mailer,
    notices: noticeDelivery({
      store,
      mailer,
      sms: { send: () => Promise.reject(new Error('No text is expected here')) },
      logger,
      publicUrl: () => 'http://wagers.test',
      signingSecret: undefined,
      limits: rateLimits(pool, () => new Date()),
      queueText: queueTextOn(queue),
    }),
    logger,
    prefix: queuePrefix,
    concurrency: 2,
  });
});

afterAll(async () => {
  await stopDispatcher();
  await worker?.close();
  await queue?.close();
  mailer?.close();
  await smtp?.stop();
  await store?.close();
  await pool?.end();
  await database?.drop();
  await dropQueueKeys(redisUrl, queuePrefix);
});

async function person(firstName: string, lastName: string) {
  const id = randomUUID();
  const email = `${firstName.toLowerCase()}-${id}@example.com`;
  await handle(
    store,
    userAggregate,
    id,
    { type: 'RegisterUser', data: { userId: id, email } },
    context(id),
  );
  await handle(
    store,
    userAggregate,
    id,
    { type: 'UpdateProfile', data: { userId: id, firstName, lastName } },
    context(id),
  );
  return { id, email };
}

const subjectsTo = (email: string) =>
  smtp.received.filter((mail) => mail.to.includes(email)).map((mail) => mail.subject);

/** Every job the queue holds has run. */
const drained = () =>
  eventually(async () => {
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    return Object.values(counts).every((count) => count === 0);
  }, 'the queue drained');

describe('a notifications dispatcher that is behind', () => {
  it('tells each side what it would have told them on time, however the bet moved on since', async () => {
    startDispatcher();
    await eventually(
      async () =>
        (await readBuilds(pool)).some((row) => row.name === NOTIFICATIONS_DISPATCHER_NAME),
      "the dispatcher's checkpoint",
    );
    const ann = await person('Ann', 'Lee');
    const bo = await person('Bo', 'Kim');

    const propose = async (title: string) => {
      const betId = randomUUID();
      await handle(
        store,
        betAggregate,
        betId,
        {
          type: 'ProposeBet',
          data: {
            betId,
            creatorId: ann.id,
            opponentId: bo.id,
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
            endDate: null,
            validationMode: 'both',
            proposedAt: new Date().toISOString(),
          },
        },
        context(ann.id),
      );
      return betId;
    };
    const accept = (betId: string) =>
      handle(
        store,
        betAggregate,
        betId,
        { type: 'AcceptBet', data: { actorId: bo.id } },
        context(bo.id),
      );
    const report = (betId: string, resolution: Resolution) =>
      handle(
        store,
        betAggregate,
        betId,
        { type: 'SubmitResolution', data: { actorId: ann.id, resolution } },
        context(ann.id),
      );

    // Told on time: two bets under way, Ann's report on one of them.
    const wind = await propose('Wind in June');
    const frost = await propose('Frost in August');
    await accept(wind);
    await accept(frost);
    await report(frost, 'creator_won');
    const toBo = [
      'Ann Lee proposed a bet: "Wind in June"',
      'Ann Lee proposed a bet: "Frost in August"',
      'Ann Lee reported the outcome of "Frost in August"',
    ];
    await smtp.waitFor(
      () => toBo.every((subject) => subjectsTo(bo.email).includes(subject)),
      `the notices to Bo (${JSON.stringify(subjectsTo(bo.email))})`,
    );
    const toAnnOnTime = [
      'Bo Kim accepted your bet "Wind in June"',
      'Bo Kim accepted your bet "Frost in August"',
    ];
    await smtp.waitFor(
      () => toAnnOnTime.every((subject) => subjectsTo(ann.email).includes(subject)),
      `the notices to Ann (${JSON.stringify(subjectsTo(ann.email))})`,
    );
    await drained();

    // The dispatcher is held back while Bo deletes his account and Ann reports on the bet left
    // open; a third bet lives its whole life meanwhile.
    await stopDispatcher();
    const hail = await propose('Hail in May');
    await accept(hail);
    await handle(
      store,
      userAggregate,
      bo.id,
      { type: 'DeleteAccount', data: { userId: bo.id, confirmEmail: bo.email } },
      context(bo.id),
    );
    for (const betId of [wind, frost, hail])
      await handle(
        store,
        betAggregate,
        betId,
        { type: 'LeaveForDeletedAccount', data: { actorId: bo.id } },
        context(bo.id),
      );
    await report(wind, 'opponent_won');
    await report(hail, 'creator_won');
    expect(subjectsTo(ann.email).sort()).toEqual([...toAnnOnTime].sort());

    startDispatcher();
    const toAnnLate = [
      'The other side of "Wind in June" deleted their account: your report decides the outcome',
      '"Wind in June" is complete',
      // Her report on "Frost in August" was made before Bo left: it stood at once, and she hears
      // of the completion alone, as she would have on time.
      '"Frost in August" is complete',
      'Deleted user accepted your bet "Hail in May"',
      'The other side of "Hail in May" deleted their account: your report decides the outcome',
      '"Hail in May" is complete',
    ];
    // The last event of the log is Hail's completion: once its notice is in, every notice before
    // it is on the queue; once the queue is drained, every one of them has been sent.
    await smtp.waitFor(
      () => subjectsTo(ann.email).includes('"Hail in May" is complete'),
      'the last notice to Ann',
    );
    await drained();
    expect(subjectsTo(ann.email).sort()).toEqual([...toAnnOnTime, ...toAnnLate].sort());
    // Bo's account is gone: nothing reaches him after it.
    expect(subjectsTo(bo.email).sort()).toEqual([...toBo].sort());
  });
});
