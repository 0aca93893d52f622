import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resolution } from '@wagers/contracts/api/bets';
import { betAggregate } from '@wagers/domain/bets/decide';
import { userAggregate } from '@wagers/domain/users/user';
import { handle } from '@wagers/platform/aggregate';
import type { CommandContext } from '@wagers/platform/decider';
import { readBuilds } from '@wagers/platform/projections/checkpoints';
import type { RunningProjector } from '@wagers/platform/projections/runner';
import { eventually } from '@wagers/test-support/log';
import { openNotifierHarness, type NotifierHarness } from '../test-support/harness.ts';
import { NOTIFICATIONS_DISPATCHER_NAME, startNotificationsDispatcher } from './dispatcher.ts';

/**
 * The notifications dispatcher held back (Redis out of reach, a restart) while a bet moves on:
 * when it catches up, each person is told what a prompt dispatcher would have told them, through
 * real PostgreSQL, Redis (BullMQ) and an SMTP server.
 */
let harness: NotifierHarness;
let dispatcher: RunningProjector | null = null;

const context = (actorId: string | null): CommandContext => ({
  actorId,
  correlationId: randomUUID(),
  now: new Date(),
  newId: randomUUID,
});

const startDispatcher = () => {
  dispatcher = startNotificationsDispatcher(harness);
};

async function stopDispatcher() {
  await dispatcher?.stop();
  dispatcher = null;
}

beforeAll(async () => {
  harness = await openNotifierHarness();
  harness.startWorker({
    notices: { sms: { send: () => Promise.reject(new Error('No text is expected here')) } },
    concurrency: 2,
  });
});

afterAll(async () => {
  await stopDispatcher();
  await harness?.close();
});

async function person(firstName: string, lastName: string) {
  const id = randomUUID();
  const email = `${firstName.toLowerCase()}-${id}@example.com`;
  await handle(
    harness.store,
    userAggregate,
    id,
    { type: 'RegisterUser', data: { userId: id, email } },
    context(id),
  );
  await handle(
    harness.store,
    userAggregate,
    id,
    { type: 'UpdateProfile', data: { userId: id, firstName, lastName } },
    context(id),
  );
  return { id, email };
}

const subjectsTo = (email: string) =>
  harness.smtp.received.filter((mail) => mail.to.includes(email)).map((mail) => mail.subject);

/** Every job the queue holds has run. */
const drained = () =>
  eventually(async () => {
    const counts = await harness.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    return Object.values(counts).every((count) => count === 0);
  }, 'the queue drained');

describe('a notifications dispatcher that is behind', () => {
  it('tells each side what it would have told them on time, however the bet moved on since', async () => {
    startDispatcher();
    await eventually(
      async () =>
        (await readBuilds(harness.pool)).some((row) => row.name === NOTIFICATIONS_DISPATCHER_NAME),
      "the dispatcher's checkpoint",
    );
    const ann = await person('Ann', 'Lee');
    const bo = await person('Bo', 'Kim');

    const propose = async (title: string) => {
      const betId = randomUUID();
      await handle(
        harness.store,
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
        harness.store,
        betAggregate,
        betId,
        { type: 'AcceptBet', data: { actorId: bo.id } },
        context(bo.id),
      );
    const report = (betId: string, resolution: Resolution) =>
      handle(
        harness.store,
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
    await harness.smtp.waitFor(
      () => toBo.every((subject) => subjectsTo(bo.email).includes(subject)),
      `the notices to Bo (${JSON.stringify(subjectsTo(bo.email))})`,
    );
    const toAnnOnTime = [
      'Bo Kim accepted your bet "Wind in June"',
      'Bo Kim accepted your bet "Frost in August"',
    ];
    await harness.smtp.waitFor(
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
      harness.store,
      userAggregate,
      bo.id,
      { type: 'DeleteAccount', data: { userId: bo.id, confirmEmail: bo.email } },
      context(bo.id),
    );
    for (const betId of [wind, frost, hail])
      await handle(
        harness.store,
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
    await harness.smtp.waitFor(
      () => subjectsTo(ann.email).includes('"Hail in May" is complete'),
      'the last notice to Ann',
    );
    await drained();
    expect(subjectsTo(ann.email).sort()).toEqual([...toAnnOnTime, ...toAnnLate].sort());
    // Bo's account is gone: nothing reaches him after it.
    expect(subjectsTo(bo.email).sort()).toEqual([...toBo].sort());
  });
});
